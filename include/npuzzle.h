/* npuzzle.h - the public API of libnpuzzle: includes every module header, nothing else.
 *
 * The conventions every function follows unless its comment says otherwise
 * (borrowed pointers, outputs written on success only, the err buffer, static
 * strings) and the error codes are described in npuzzle/error.h. */
#ifndef NPUZZLE_H
#define NPUZZLE_H

#include "npuzzle/error.h"
#include "npuzzle/sys.h"
#include "npuzzle/rng.h"
#include "npuzzle/board.h"
#include "npuzzle/rank.h"
#include "npuzzle/pattern.h"
#include "npuzzle/pdb_gen.h"
#include "npuzzle/pdb_file.h"
#include "npuzzle/pdbset.h"
#include "npuzzle/heuristic.h"
#include "npuzzle/ida.h"
#include "npuzzle/astar.h"
#include "npuzzle/batch.h"

#endif
