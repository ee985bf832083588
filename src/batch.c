/* batch.c - many boards over many threads (OpenMP), results in input order. */
#include "npuzzle/batch.h"

#include <omp.h>

#include "npuzzle/astar.h"
#include "npuzzle/error.h"

static int solve_one(np_result *res, const np_board *b, const np_geom *g,
                     const np_search_opts *opts, np_algorithm alg)
{
    int rc = alg == NP_ALG_ASTAR ? np_astar_solve(res, b, g, opts) : np_ida_solve(res, b, g, opts);
    if (rc != NP_OK) {
        res->status = NP_STATUS_ERROR;
        res->error = rc;
    }
    return rc;
}

/* Board i of a batch, with its progress report (serialised). */
static void batch_one(np_result *results, const np_board *boards, const np_geom *g, size_t n,
                      const np_search_opts *each, const np_batch_opts *bopts, size_t i,
                      size_t *done, int *first_err)
{
    np_search_opts o = *each;
    if (bopts->prepare)
        bopts->prepare(bopts->prepare_ctx, i, &o);
    int rc = solve_one(&results[i], &boards[i], g, &o, bopts->algorithm);
#pragma omp critical(np_batch_progress)
    {
        (*done)++;
        if ((rc == NP_EINVAL || rc == NP_ENOMEM) && *first_err == NP_OK)
            *first_err = rc;
        if (bopts->progress)
            bopts->progress(bopts->progress_ctx, i, *done, n, &results[i]);
    }
}

bool np_batch_one_at_a_time(size_t n, const np_geom *g, const np_batch_opts *bopts)
{
    np_batch_opts dflt = {0};
    if (!bopts)
        bopts = &dflt;
    const size_t threads = bopts->threads > 0 ? (size_t)bopts->threads : 1;
    if (n == 1)
        return true;
    if (bopts->algorithm != NP_ALG_IDA || bopts->mode == NP_BATCH_PARALLEL)
        return false;
    return bopts->mode == NP_BATCH_ONE_AT_A_TIME || n < threads || g->cells >= 25;
}

int np_batch_solve(np_result *results, const np_board *boards, size_t n, const np_geom *g,
                   const np_search_opts *opts, const np_batch_opts *bopts)
{
    np_batch_opts dflt = {0};
    np_search_opts sdflt = {0};
    if (!bopts)
        bopts = &dflt;
    if (!opts)
        opts = &sdflt;
    if (bopts->algorithm != NP_ALG_IDA && bopts->algorithm != NP_ALG_ASTAR)
        return NP_EINVAL;
    if (n == 0)
        return NP_OK;
    int threads = bopts->threads > 0 ? bopts->threads : 1;
    /* Either one board after the other, each on every thread (the split
     * search; a team of one runs the loop in order), or boards handed out
     * one at a time to the threads: their costs differ by orders of
     * magnitude, so a static split would leave a thread idle. One board to
     * a thread leaves threads idle at the end while the largest board runs
     * alone: the 10 easiest Korf-Felner 24-puzzle boards on 16 cores took
     * 54.3 s that way, 27.6 s one after the other. */
    const bool one_at_a_time = np_batch_one_at_a_time(n, g, bopts);
    np_search_opts each = *opts;
    each.threads = one_at_a_time ? threads : 1;
    /* cppcheck-suppress unreadVariable ; read by num_threads() below */
    const int team = one_at_a_time ? 1 : (size_t)threads > n ? (int)n : threads;
    size_t done = 0;
    int first_err = NP_OK;
    /* A team of one is a plain loop, outside any parallel region: the split
     * search then opens its own team at the outermost level, where OpenMP
     * keeps its threads between regions. Inside even an inactive region its
     * team is nested, and a board of a few milliseconds took 30 ms (3x3,
     * -j 2, the threads spinning while the team was set up again). */
    if (team == 1) {
        for (size_t i = 0; i < n; i++)
            batch_one(results, boards, g, n, &each, bopts, i, &done, &first_err);
        return first_err;
    }
#pragma omp parallel for schedule(dynamic, 1) num_threads(team)
    for (size_t i = 0; i < n; i++)
        batch_one(results, boards, g, n, &each, bopts, i, &done, &first_err);
    return first_err;
}
