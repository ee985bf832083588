/* astar.h - A* for small boards: an independent second solving path (and weighted A*). */
#ifndef NPUZZLE_ASTAR_H
#define NPUZZLE_ASTAR_H

#include "npuzzle/board.h"
#include "npuzzle/ida.h"

#ifdef __cplusplus
extern "C" {
#endif

/*! Largest board A* accepts: states are packed 4 bits a cell into 64 bits. */
#define NP_ASTAR_MAX_CELLS 16

/*! Solve `start` with A* (f = g + weight*h, heuristic md or lc; ties broken
 *  towards deeper nodes). Counts as in np_ida_solve: generated = children
 *  produced (root excluded), expanded = nodes taken off the open list. Memory
 *  is bounded by opts->max_memory (0: three quarters of MemAvailable): when the
 *  closed and open sets would exceed it the search stops with NP_STATUS_LIMIT.
 *  The bound holds at the peak: while a set grows its old and new arrays
 *  count together.
 *  `res` is the caller's and always written:
 *  reset first (length -1), then filled; on an error return res->status is
 *  not set (it reads 0, NP_STATUS_SOLVED). `opts` may be NULL (defaults) and
 *  is borrowed for the call; only its heuristic, weight, max_nodes, timeout,
 *  max_memory and cancel are read.
 *  The search's memory is its own and freed before it returns.
 *  The memory bound, a failed allocation, the node, time or cancel limit and
 *  a solution longer than NP_MAX_PATH are not errors: NP_OK with res->status
 *  NP_STATUS_LIMIT (res->error NP_ELIMIT); A* never returns NP_ENOMEM.
 *  NP_OK with NP_STATUS_ERROR (res->error NP_EINVAL) means a found path failed
 *  its replay (a bug).
 *  @return NP_OK (see res->status); NP_EINVAL for a board not valid for `g`,
 *          a labelled geometry (board.h) or a weight other than 0 outside
 *          1..NP_MAX_WEIGHT (NaN too);
 *          NP_ETOOBIG when the board has more than NP_ASTAR_MAX_CELLS cells;
 *          NP_EUNSUPPORTED for any heuristic but NP_H_MD and NP_H_LC (the pdb
 *          heuristic included). Thread-safe. */
int np_astar_solve(np_result *res, const np_board *start, const np_geom *g,
                   const np_search_opts *opts);

#ifdef __cplusplus
}
#endif

#endif
