/* search_internal.h - helpers shared by the search modules (not public API). */
#ifndef NPUZZLE_SEARCH_INTERNAL_H
#define NPUZZLE_SEARCH_INTERNAL_H

#include "npuzzle/ida.h"

/* IDA* with the additive PDB heuristic (pdb search, in ida_pdb.c). */
int np__ida_pdb(np_result *res, const np_board *start, const np_geom *g, const np_search_opts *opts);

#endif
