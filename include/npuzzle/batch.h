/* batch.h - solving many boards over many threads, results in input order. */
#ifndef NPUZZLE_BATCH_H
#define NPUZZLE_BATCH_H

#include <stddef.h>

#include "npuzzle/board.h"
#include "npuzzle/ida.h"

typedef enum np_algorithm { NP_ALG_IDA = 0, NP_ALG_ASTAR = 1 } np_algorithm;

/*! Called (from any thread, serialised by the batch) after each board is done:
 *  `index` is the board's position in the input, `done` how many are finished. */
typedef void (*np_batch_progress)(void *ctx, size_t index, size_t done, size_t total,
                                  const np_result *res);

/*! Called before board `index` is searched, with a copy of the search options
 *  that it may change for that board alone (a journal, a resumed state). From
 *  the worker threads, possibly at once. */
typedef void (*np_batch_prepare)(void *ctx, size_t index, np_search_opts *opts);

typedef struct np_batch_opts {
    np_algorithm algorithm;
    int threads;                /*!< worker threads (0 = 1) */
    np_batch_progress progress; /*!< optional; called once per board, serialised */
    void *progress_ctx;
    np_batch_prepare prepare; /*!< optional */
    void *prepare_ctx;
} np_batch_opts;

/*! Solve boards[0..n-1] (all for geometry `g`) into results[0..n-1], in
 *  input order whatever the thread count. Boards go to threads dynamically.
 *  With one board and several threads, that board's search is parallel
 *  (opts->threads is set from bopts->threads).
 *  @return NP_OK when every board was attempted (see each result's status),
 *          or the first hard error (NP_EINVAL, NP_ENOMEM, ...). */
int np_batch_solve(np_result *results, const np_board *boards, size_t n, const np_geom *g,
                   const np_search_opts *opts, const np_batch_opts *bopts);

#endif
