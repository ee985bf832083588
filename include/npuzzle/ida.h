/* ida.h - IDA* (and weighted IDA*) on one board: in-place moves, limits, statistics, path. */
#ifndef NPUZZLE_IDA_H
#define NPUZZLE_IDA_H

#include <stdbool.h>
#include <stdint.h>

#include "npuzzle/board.h"
#include "npuzzle/heuristic.h"

/*! Longest move sequence a result can hold. */
#define NP_MAX_PATH 1000

typedef enum np_status {
    NP_STATUS_SOLVED = 0,     /*!< a solution was found (optimal unless weight > 1) */
    NP_STATUS_UNSOLVABLE = 1, /*!< answered by parity, no search */
    NP_STATUS_LIMIT = 2,      /*!< node, time or memory limit reached first */
    NP_STATUS_ERROR = 3       /*!< the board could not be searched (see error) */
} np_status;

/*! @return "solved", "unsolvable", "limit" or "error". */
const char *np_status_name(np_status s);

/*! Search options; zero-initialise, then set what you need. A zero field means
 *  its default. The struct is read-only during a search and may be shared by
 *  threads. */
typedef struct np_search_opts {
    np_hkind heuristic;         /*!< NP_H_MD (default), NP_H_LC or NP_H_PDB */
    const np_pdbset *pdbs;      /*!< NP_H_PDB: the mapped tables (not owned) */
    bool no_reflect;            /*!< NP_H_PDB: skip the reflected (transposed) lookup */
    double weight;              /*!< f = g + weight*h; 0 or 1 = optimal search */
    uint64_t max_nodes;         /*!< stop after this many generated nodes (0 = none) */
    double timeout;             /*!< stop after this many seconds (0 = none) */
    int threads;                /*!< threads for one board (0 or 1 = serial) */
    uint64_t max_memory;        /*!< A*: bytes it may use (0 = 3/4 of MemAvailable) */
    const volatile int *cancel; /*!< if not NULL, the search stops when *cancel != 0 */
    bool generic_kernel;        /*!< use the general kernel even on 4x4 and 5x5 boards, which
                                *   have kernels with compile-time geometry (for tests and
                                *   benchmarks: both walk the same tree) */
} np_search_opts;

/*! The outcome of solving one board. */
typedef struct np_result {
    np_status status;
    int error;                   /*!< NP_OK, or the np_error when status is NP_STATUS_ERROR */
    int length;                  /*!< moves in the solution, -1 when none */
    int bound;                   /*!< the last f bound searched (useful for NP_STATUS_LIMIT) */
    int h0;                      /*!< the heuristic value of the start board */
    uint64_t expanded;           /*!< nodes whose children were generated */
    uint64_t generated;          /*!< children produced by a move (root not counted) */
    double seconds;              /*!< wall time of this board's search */
    char moves[NP_MAX_PATH + 1]; /*!< blank directions, "ULRD" letters, NUL-terminated */
} np_result;

/*! Solve `start` (must be valid for `g`) with IDA*. Unsolvable boards are
 *  answered by parity without search. The solution is replayed on a copy of
 *  the start and checked to reach the goal before this returns.
 *  Children are generated in the order up, left, right, down (the blank's
 *  moves), never undoing the previous move; every child is counted as
 *  generated, so Manhattan-distance counts reproduce Korf (1985).
 *  @return NP_OK (see res->status), NP_EINVAL for a bad board or options or a
 *          labelled geometry (board.h), or
 *          NP_EUNSUPPORTED (PDB heuristic without tables for this board).
 *  Thread-safe: many searches may run at once on shared `g` and `opts`. */
int np_ida_solve(np_result *res, const np_board *start, const np_geom *g,
                 const np_search_opts *opts);

/*! Check a solution independently of the search: apply `moves` to `start`
 *  and test that the goal is reached. @return NP_OK or NP_EINVAL. */
int np_solution_check(const np_board *start, const np_geom *g, const char *moves);

#endif
