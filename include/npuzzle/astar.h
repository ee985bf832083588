/* astar.h - A* for small boards: an independent second solving path (and weighted A*). */
#ifndef NPUZZLE_ASTAR_H
#define NPUZZLE_ASTAR_H

#include "npuzzle/board.h"
#include "npuzzle/ida.h"

/*! Largest board A* accepts: states are packed 4 bits a cell into 64 bits. */
#define NP_ASTAR_MAX_CELLS 16

/*! Solve `start` with A* (f = g + weight*h, heuristic md or lc; ties broken
 *  towards deeper nodes). Counts as in np_ida_solve: generated = children
 *  produced (root excluded), expanded = nodes taken off the open list. Memory
 *  is bounded by opts->max_memory (0: three quarters of MemAvailable); when the
 *  closed and open sets would exceed it the search stops with NP_STATUS_LIMIT.
 *  @return NP_OK (see res->status), NP_EINVAL for a bad board or options or
 *          a labelled geometry (board.h), NP_ETOOBIG when the board has more than NP_ASTAR_MAX_CELLS cells,
 *          NP_EUNSUPPORTED for the pdb heuristic. Thread-safe. */
int np_astar_solve(np_result *res, const np_board *start, const np_geom *g,
                   const np_search_opts *opts);

#endif
