/* solve_harness.h - what test_astar.c and test_ida.c share: check a solver's answer for a
 * board against the breadth-first oracle (tests/oracle.h), over a sample or over every board
 * of an oracle, and time each test.
 *
 * Harness, not oracle: it calls the library (the solver under test, np_geom_init, the
 * heuristics it compares h0 with); the ground truth stays in oracle.h.
 * Header-only, static inline; include it after <cmocka.h>.
 */
#ifndef NPUZZLE_TESTS_SOLVE_HARNESS_H
#define NPUZZLE_TESTS_SOLVE_HARNESS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "npuzzle.h"
#include "oracle.h"

static inline double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

typedef int (*solve_fn)(np_result *, const np_board *, const np_geom *, const np_search_opts *);

/* Solve one board and check the answer against the oracle distance `opt`:
 * exact when weight <= 1, else opt <= L <= weight*opt; the path is replayed here. */
static inline void check_solve(solve_fn solve, const char *what, const oracle *o, const np_geom *g,
                               const uint8_t *p, int opt, const np_search_opts *opts)
{
    np_board b = make_board(p, o->rows, o->cols);
    np_result *res = malloc(sizeof *res);
    assert_non_null(res);
    int rc = solve(res, &b, g, opts);
    double w = opts->weight > 1.0 ? opts->weight : 1.0;
    const char *h = np_hkind_name(opts->heuristic);
    if (rc != NP_OK || res->status != NP_STATUS_SOLVED)
        fail_msg("%s-%s w=%.2f %dx%d board [%s]: rc=%d status=%d", what, h, w, o->rows, o->cols,
                 board_str(p, o->n), rc, (int)res->status);
    if (w == 1.0 && res->length != opt)
        fail_msg("%s-%s %dx%d board [%s]: length %d, BFS distance %d", what, h, o->rows, o->cols,
                 board_str(p, o->n), res->length, opt);
    if (w > 1.0 && (res->length < opt || res->length > w * opt + 1e-9))
        fail_msg("%s-%s w=%.2f %dx%d board [%s]: length %d outside [%d, %.2f]", what, h, w, o->rows,
                 o->cols, board_str(p, o->n), res->length, opt, w * opt);
    if ((res->length - opt) % 2 != 0)
        fail_msg("%s-%s board [%s]: length %d has the wrong parity (opt %d)", what, h,
                 board_str(p, o->n), res->length, opt);
    int at_goal = 0;
    int k = replay(p, o->rows, o->cols, o->blank_last, res->moves, &at_goal);
    if (k != res->length || !at_goal)
        fail_msg("%s-%s w=%.2f board [%s]: moves \"%s\" replay to %d legal moves (length %d), "
                 "goal %s",
                 what, h, w, board_str(p, o->n), res->moves, k, res->length,
                 at_goal ? "reached" : "NOT reached");
    int hv = opts->heuristic == NP_H_LC ? np_h_linear_conflict(&b, g) : np_h_manhattan(&b, g);
    if (res->h0 != hv)
        fail_msg("%s-%s board [%s]: h0 %d, heuristic says %d", what, h, board_str(p, o->n), res->h0,
                 hv);
    if (opt > 0 &&
        (res->generated < (uint64_t)res->length || res->expanded < (uint64_t)res->length))
        fail_msg("%s-%s board [%s]: %llu expanded, %llu generated for a %d-move solution", what, h,
                 board_str(p, o->n), (unsigned long long)res->expanded,
                 (unsigned long long)res->generated, res->length);
    free(res);
}

/* The duplicate pruning run_sample and run_all ask for (a test may set it). */
static np_prune harness_prune = NP_PRUNE_DEFAULT;

/* Check `solve` on the boards of oracle `o` with the given ranks. */
static inline void run_sample(solve_fn solve, const char *what, const oracle *o,
                              const uint32_t *ranks, size_t n, np_hkind h, double weight)
{
    np_geom g;
    assert_true(np_geom_init(&g, o->rows, o->cols,
                             o->blank_last ? NP_GOAL_BLANK_LAST : NP_GOAL_BLANK_FIRST) == NP_OK);
    np_search_opts opts;
    memset(&opts, 0, sizeof opts);
    opts.heuristic = h;
    opts.weight = weight;
    opts.prune = harness_prune;
    uint8_t p[OR_MAX_CELLS];
    for (size_t i = 0; i < n; i++) {
        perm_unrank(ranks[i], p, o->n);
        check_solve(solve, what, o, &g, p, o->dist[ranks[i]], &opts);
    }
}

/* Every reachable board of a small oracle. */
static inline void run_all(solve_fn solve, const char *what, const oracle *o, np_hkind h,
                           double weight)
{
    uint32_t *ranks = malloc(o->reached * sizeof *ranks);
    assert_non_null(ranks);
    size_t n = 0;
    for (uint32_t r = 0; r < o->count; r++)
        if (o->dist[r] >= 0)
            ranks[n++] = r;
    run_sample(solve, what, o, ranks, n, h, weight);
    free(ranks);
}

/* Solve every stride-th board of the sample `ranks` (oracle o) with Manhattan
 * distance at weights w1 and w2. Each answer must be within its weight of
 * the oracle's distance; where `same`, the two must agree in length and
 * nodes generated (a weight that rounds to the other). @return how many
 * boards were solved with different counts; *tested: how many boards. */
static inline size_t compare_weights(solve_fn solve, const oracle *o, const uint32_t *ranks,
                                     size_t n, size_t stride, double w1, double w2, bool same,
                                     size_t *tested)
{
    np_geom g;
    assert_true(np_geom_init(&g, o->rows, o->cols,
                             o->blank_last ? NP_GOAL_BLANK_LAST : NP_GOAL_BLANK_FIRST) == NP_OK);
    np_result *a = malloc(sizeof *a), *b = malloc(sizeof *b);
    assert_non_null(a);
    assert_non_null(b);
    uint8_t p[OR_MAX_CELLS];
    size_t differ = 0;
    *tested = 0;
    for (size_t i = 0; i < n; i += stride) {
        perm_unrank(ranks[i], p, o->n);
        const np_board bd = make_board(p, o->rows, o->cols);
        const np_search_opts o1 = {.heuristic = NP_H_MD, .weight = w1};
        const np_search_opts o2 = {.heuristic = NP_H_MD, .weight = w2};
        assert_true(solve(a, &bd, &g, &o1) == NP_OK);
        assert_true(solve(b, &bd, &g, &o2) == NP_OK);
        const int opt = o->dist[ranks[i]];
        if (a->length > (w1 > 1 ? w1 : 1) * opt + 1e-9 ||
            b->length > (w2 > 1 ? w2 : 1) * opt + 1e-9)
            fail_msg("[%s]: weight %g: length %d; weight %g: %d; optimal %d", board_str(p, o->n),
                     w1, a->length, w2, b->length, opt);
        if (same && (a->length != b->length || a->generated != b->generated))
            fail_msg("[%s]: weight %g: length %d, %llu generated; weight %g: %d, %llu",
                     board_str(p, o->n), w1, a->length, (unsigned long long)a->generated, w2,
                     b->length, (unsigned long long)b->generated);
        differ += a->generated != b->generated;
        ++*tested;
    }
    free(a);
    free(b);
    return differ;
}

/* The two 8-puzzle boards at the largest distance, 31 moves (o: the 3x3
 * blank-first oracle, which holds their distance), under MD and LC. */
static inline void check_hardest8(solve_fn solve, const char *what, const oracle *o)
{
    static const uint8_t a[9] = {8, 0, 6, 5, 4, 7, 2, 3, 1}, b[9] = {8, 7, 6, 0, 4, 1, 2, 5, 3};
    np_geom g;
    assert_true(np_geom_init(&g, 3, 3, NP_GOAL_BLANK_FIRST) == NP_OK);
    for (int h = NP_H_MD; h <= NP_H_LC; h++) {
        np_search_opts opts;
        memset(&opts, 0, sizeof opts);
        opts.heuristic = (np_hkind)h;
        check_solve(solve, what, o, &g, a, 31, &opts);
        check_solve(solve, what, o, &g, b, 31, &opts);
    }
}

/* Per-test wall time, printed so that slow parts show up in the test log. */
static double test_t0;

static inline int timer_start(void **state)
{
    (void)state;
    test_t0 = now();
    return 0;
}

static inline int timer_stop(void **state)
{
    (void)state;
    print_message("  (%.2f s)\n", now() - test_t0);
    return 0;
}

#define TIMED_TEST(f) cmocka_unit_test_setup_teardown(f, timer_start, timer_stop)

#endif /* NPUZZLE_TESTS_SOLVE_HARNESS_H */
