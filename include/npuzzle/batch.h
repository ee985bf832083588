/* batch.h - solving many boards over many threads, results in input order. */
#ifndef NPUZZLE_BATCH_H
#define NPUZZLE_BATCH_H

#include <stdbool.h>
#include <stddef.h>

#include "npuzzle/board.h"
#include "npuzzle/ida.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum np_algorithm { NP_ALG_IDA = 0, NP_ALG_ASTAR = 1 } np_algorithm;

/*! Called (from any thread, serialised by the batch) after each board is done:
 *  `index` is the board's position in the input, `done` how many are finished.
 *  `res` is results[index] in the caller's array, complete when this is called. */
typedef void (*np_batch_progress)(void *ctx, size_t index, size_t done, size_t total,
                                  const np_result *res);

/*! Called before board `index` is searched, with a copy of the search options
 *  that it may change for that board alone (a journal, a resumed state). From
 *  the worker threads, possibly at once. `opts` lives for the call only; what
 *  it is made to point to must outlive that board's search and stays the
 *  callback's to free. */
typedef void (*np_batch_prepare)(void *ctx, size_t index, np_search_opts *opts);

/*! How a batch shares its threads among the boards. */
typedef enum np_batch_mode {
    NP_BATCH_AUTO = 0,      /*!< one at a time for boards of 25 cells or more, or when there
                             *   are fewer boards than threads; else one board to a thread */
    NP_BATCH_PARALLEL,      /*!< one board to a thread (a lone board still gets them all) */
    NP_BATCH_ONE_AT_A_TIME, /*!< one board after the other, each on every thread */
} np_batch_mode;

typedef struct np_batch_opts {
    np_algorithm algorithm;
    int threads;                /*!< worker threads (0 = 1) */
    np_batch_mode mode;         /*!< how boards share the threads (np_batch_one_at_a_time) */
    np_batch_progress progress; /*!< optional; called once per board, serialised */
    void *progress_ctx;
    np_batch_prepare prepare; /*!< optional */
    void *prepare_ctx;
} np_batch_opts;

/*! Solve boards[0..n-1] (all for geometry `g`) into results[0..n-1], in
 *  input order whatever the thread count. Either the boards go to threads
 *  dynamically, one search per thread, or (np_batch_one_at_a_time) they are
 *  solved one after the other, each search parallel on every thread
 *  (opts->threads is set from bopts->threads, before `prepare` sees it); the
 *  node counts are those of a serial search either way.
 *  Ownership: `results` is the caller's array of n; every entry is written
 *  (nothing when n is 0). A board whose search returned an error gets status
 *  NP_STATUS_ERROR and that code in its error field. `opts` and `bopts` may
 *  be NULL (defaults). `boards`, `g`, `opts`
 *  and `bopts` are borrowed for the call; the callbacks run inside it.
 *  @return NP_OK when every board was attempted (see each result's status;
 *          NP_EUNSUPPORTED, NP_ETOOBIG and the other search errors are only
 *          recorded there), or NP_EINVAL or NP_ENOMEM when a board's search
 *          returned it: every board is still attempted, and with several
 *          boards the code is that of the first such board to finish.
 *          NP_EINVAL at once, no board attempted nor result written, for an
 *          algorithm that is not an np_algorithm. */
int np_batch_solve(np_result *results, const np_board *boards, size_t n, const np_geom *g,
                   const np_search_opts *opts, const np_batch_opts *bopts);

/*! Whether np_batch_solve solves n boards of geometry g one after the other,
 *  each on every thread (true), or one board to a thread: one board, or IDA*
 *  with NP_BATCH_ONE_AT_A_TIME, or IDA* with NP_BATCH_AUTO and either fewer
 *  boards than threads or boards of 25 cells or more. Why the 25 cells: a
 *  24-puzzle board takes seconds to hours, so the split search's overhead is
 *  small and a board left alone on one thread at the end is the cost; a
 *  15-puzzle board takes milliseconds and the split would cost more than it
 *  saves. Measured with -j 2 on a 2-core machine: the 10 easiest Korf-Felner
 *  boards 72.7 s one at a time against 81.1 s one to a thread, Korf's 100
 *  0.46 s against 0.09 s, the 17 80-move positions 3.29 s against 3.16 s.
 *  `bopts` may be NULL (defaults). Cannot fail. */
bool np_batch_one_at_a_time(size_t n, const np_geom *g, const np_batch_opts *bopts);

#ifdef __cplusplus
}
#endif

#endif
