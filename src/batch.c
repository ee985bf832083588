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

int np_batch_solve(np_result *results, const np_board *boards, size_t n, const np_geom *g,
                   const np_search_opts *opts, const np_batch_opts *bopts)
{
    np_batch_opts dflt = {0};
    np_search_opts sdflt = {0};
    if (!bopts)
        bopts = &dflt;
    if (!opts)
        opts = &sdflt;
    if (n == 0)
        return NP_OK;
    int threads = bopts->threads > 0 ? bopts->threads : 1;
    if (n == 1) {
        /* One board: give all threads to its search. */
        np_search_opts one = *opts;
        one.threads = threads;
        if (bopts->prepare)
            bopts->prepare(bopts->prepare_ctx, 0, &one);
        int rc = solve_one(&results[0], &boards[0], g, &one, bopts->algorithm);
        if (bopts->progress)
            bopts->progress(bopts->progress_ctx, 0, 1, 1, &results[0]);
        return rc == NP_EINVAL || rc == NP_ENOMEM ? rc : NP_OK;
    }
    np_search_opts each = *opts;
    each.threads = 1;
    size_t done = 0;
    int first_err = NP_OK;
    if ((size_t)threads > n)
        threads = (int)n; /* cppcheck-suppress unreadVariable ; read by num_threads() below */

        /* Boards are handed out one at a time: their costs differ by orders of
     * magnitude, so a static split would leave a thread idle. */
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads)
    for (size_t i = 0; i < n; i++) {
        np_search_opts o = each;
        if (bopts->prepare)
            bopts->prepare(bopts->prepare_ctx, i, &o);
        int rc = solve_one(&results[i], &boards[i], g, &o, bopts->algorithm);
#pragma omp critical(np_batch_progress)
        {
            done++;
            if ((rc == NP_EINVAL || rc == NP_ENOMEM) && first_err == NP_OK)
                first_err = rc;
            if (bopts->progress)
                bopts->progress(bopts->progress_ctx, i, done, n, &results[i]);
        }
    }
    return first_err;
}
