/* test_astar.c - A* (optimal and weighted) checked against an independent breadth-first oracle.
 *
 * The oracle (tests/oracle.h: a plain BFS with its own ranking and move code, the
 * same one test_ida.c uses) gives the exact distance of every small board; every solution
 * A* returns is replayed here with that move code.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "npuzzle.h"
#include "oracle.h"
#include "solve_harness.h"

/* ---- helpers ------------------------------------------------------------ */

static oracle or33, or23, or32, or24, or33_last;
static uint32_t *sample33;
static size_t nsample33;

static int group_setup(void **state)
{
    (void)state;
    oracle_build(&or33, 3, 3, 0);
    oracle_build(&or23, 2, 3, 0);
    oracle_build(&or32, 3, 2, 0);
    oracle_build(&or24, 2, 4, 0);
    oracle_build(&or33_last, 3, 3, 1);
    /* 100 per distance: every board of distances 0-7 and 31, 100 of each other
     * (the same fixed-seed sample as test_ida.c). */
    nsample33 = stratified_sample(&or33, 100, &sample33);
    return 0;
}

static int group_teardown(void **state)
{
    (void)state;
    oracle_free(&or33);
    oracle_free(&or23);
    oracle_free(&or32);
    oracle_free(&or24);
    oracle_free(&or33_last);
    free(sample33);
    return 0;
}

static void test_oracle_sample(void **state)
{
    (void)state;
    assert_int_equal(or33.reached, 181440);
    assert_int_equal(or33.maxd, 31);
    assert_int_equal(or33.per_dist[31], 2);
    assert_int_equal(or24.reached, 20160);
    assert_true(nsample33 >= 2000);
    for (int d = 0; d <= 31; d++) {
        size_t k = 0;
        for (size_t i = 0; i < nsample33; i++)
            k += or33.dist[sample33[i]] == d;
        assert_true(k >= 1);
    }
}

static void test_astar_3x3_sample_md(void **state)
{
    (void)state;
    run_sample(np_astar_solve, "astar", &or33, sample33, nsample33, NP_H_MD, 0);
}

static void test_astar_3x3_sample_lc(void **state)
{
    (void)state;
    run_sample(np_astar_solve, "astar", &or33, sample33, nsample33, NP_H_LC, 0);
}

static void test_astar_hardest8(void **state)
{
    (void)state;
    check_hardest8(np_astar_solve, "astar", &or33);
}

/* Every board of 2x3 and 3x2; a stratified sample of 2x4, 15 boards of each
 * distance (every A* call sets up its tables, which makes all 20,160 boards
 * too slow under the sanitizers). */
static void test_astar_small_boards(void **state)
{
    (void)state;
    uint32_t *ranks;
    size_t n = stratified_sample(&or24, 15, &ranks);
    assert_true(n >= 450);
    for (int h = NP_H_MD; h <= NP_H_LC; h++) {
        run_all(np_astar_solve, "astar", &or23, (np_hkind)h, 0);
        run_all(np_astar_solve, "astar", &or32, (np_hkind)h, 0);
        run_sample(np_astar_solve, "astar", &or24, ranks, n, (np_hkind)h, 0);
    }
    free(ranks);
}

static void test_astar_blank_last(void **state)
{
    (void)state;
    uint32_t *ranks;
    size_t n = stratified_sample(&or33_last, 12, &ranks);
    assert_true(n >= 300);
    for (int h = NP_H_MD; h <= NP_H_LC; h++)
        run_sample(np_astar_solve, "astar", &or33_last, ranks, n, (np_hkind)h, 0);
    free(ranks);
}

/* Weighted A*: every eighth board of the 3x3 sample (300 boards, every
 * distance band present, as the sample is sorted by distance) and 10 2x4
 * boards per distance. */
static void test_astar_weighted(void **state)
{
    (void)state;
    size_t n = 0;
    uint32_t *part = malloc(nsample33 * sizeof *part);
    assert_non_null(part);
    for (size_t i = 0; i < nsample33; i += 8)
        part[n++] = sample33[i];
    assert_true(n >= 250);
    for (int h = NP_H_MD; h <= NP_H_LC; h++) {
        run_sample(np_astar_solve, "astar", &or33, part, n, (np_hkind)h, 2.0);
        run_sample(np_astar_solve, "astar", &or33, part, n, (np_hkind)h, 1.5);
    }
    free(part);
    uint32_t *ranks;
    n = stratified_sample(&or24, 10, &ranks);
    for (int h = NP_H_MD; h <= NP_H_LC; h++)
        run_sample(np_astar_solve, "astar", &or24, ranks, n, (np_hkind)h, 2.0);
    free(ranks);
}

/* The weight is taken to a tenth, rounded down (astar.h): 1.19 searches as 1.1
 * and 1.09 as the optimal search, node for node, so the bound "at most weight
 * times the optimal length" holds for the weight given (rounding to the
 * nearest tenth searched 1.15 as 1.2). */
static void test_astar_weight_tenths(void **state)
{
    (void)state;
    static const double pairs[][2] = {{1.19, 1.1}, {1.15, 1.1}, {1.09, 0}, {1.51, 1.5}};
    for (size_t k = 0; k < sizeof pairs / sizeof pairs[0]; k++) {
        size_t tested;
        compare_weights(np_astar_solve, &or33, sample33, nsample33, 40, pairs[k][0], pairs[k][1],
                        true, &tested);
        assert_true(tested >= 50);
    }
}

/* max_nodes: a board is solved only when A* needs at most that many nodes
 * (as IDA*): with its own count it is solved, with one less it is not (the
 * children of the node expanded last may pass the limit; the goal found after
 * them was answered). An algorithm np_batch_solve does not know is refused. */
static void test_astar_max_nodes(void **state)
{
    (void)state;
    np_geom g;
    assert_true(np_geom_init(&g, 3, 3, NP_GOAL_BLANK_FIRST) == NP_OK);
    np_result *res = malloc(sizeof *res);
    assert_non_null(res);
    uint8_t p[OR_MAX_CELLS];
    size_t tested = 0;
    for (size_t i = 0; i < nsample33; i += 20) {
        perm_unrank(sample33[i], p, 9);
        np_board b = make_board(p, 3, 3);
        np_search_opts o = {.heuristic = NP_H_MD};
        assert_true(np_astar_solve(res, &b, &g, &o) == NP_OK);
        if (res->status != NP_STATUS_SOLVED || res->generated < 2)
            continue;
        const uint64_t need = res->generated;
        o.max_nodes = need;
        assert_true(np_astar_solve(res, &b, &g, &o) == NP_OK);
        if (res->status != NP_STATUS_SOLVED)
            fail_msg("[%s]: max_nodes %llu, its own count: status %d", board_str(p, 9),
                     (unsigned long long)need, (int)res->status);
        o.max_nodes = need - 1;
        assert_true(np_astar_solve(res, &b, &g, &o) == NP_OK);
        if (res->status != NP_STATUS_LIMIT || res->length != -1)
            fail_msg("[%s]: max_nodes %llu, one less than it needs: status %d, %llu generated",
                     board_str(p, 9), (unsigned long long)(need - 1), (int)res->status,
                     (unsigned long long)res->generated);
        tested++;
    }
    assert_true(tested >= 50);
    static const uint8_t one[9] = {1, 0, 2, 3, 4, 5, 6, 7, 8};
    np_board b = make_board(one, 3, 3);
    np_batch_opts bo = {.algorithm = (np_algorithm)7};
    assert_int_equal(np_batch_solve(res, &b, 1, &g, NULL, &bo), NP_EINVAL);
    free(res);
}

static void test_astar_unsolvable(void **state)
{
    (void)state;
    np_geom g;
    assert_true(np_geom_init(&g, 3, 3, NP_GOAL_BLANK_FIRST) == NP_OK);
    np_result *res = malloc(sizeof *res);
    assert_non_null(res);
    uint8_t p[OR_MAX_CELLS];
    size_t tested = 0;
    for (uint32_t r = 0; r < or33.count; r += 97) {
        if (or33.dist[r] >= 0)
            continue;
        perm_unrank(r, p, 9);
        np_board b = make_board(p, 3, 3);
        assert_true(np_astar_solve(res, &b, &g, NULL) == NP_OK);
        if (res->status != NP_STATUS_UNSOLVABLE || res->generated != 0 || res->length != -1)
            fail_msg("unsolvable [%s]: status %d generated %llu length %d", board_str(p, 9),
                     (int)res->status, (unsigned long long)res->generated, res->length);
        tested++;
    }
    assert_true(tested > 500);
    free(res);
}

/* Boards of more than 16 cells are refused; 4x4 is accepted and solved. */
static void test_astar_size_limit(void **state)
{
    (void)state;
    np_result *res = malloc(sizeof *res);
    assert_non_null(res);
    static const int sizes[][2] = {{5, 5}, {4, 5}, {3, 6}, {6, 6}};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        np_geom g;
        assert_true(np_geom_init(&g, sizes[i][0], sizes[i][1], NP_GOAL_BLANK_FIRST) == NP_OK);
        np_board b;
        np_board_goal(&b, &g);
        /* one move from the goal: trivially easy, still too big */
        assert_true(np_board_move(&b, &g, NP_RIGHT) == NP_OK);
        int rc = np_astar_solve(res, &b, &g, NULL);
        if (rc != NP_ETOOBIG)
            fail_msg("%dx%d: np_astar_solve returned %d, want NP_ETOOBIG", sizes[i][0], sizes[i][1],
                     rc);
        assert_int_equal(res->length, -1);
    }
    /* other refusals */
    np_geom g;
    assert_true(np_geom_init(&g, 3, 3, NP_GOAL_BLANK_FIRST) == NP_OK);
    static const uint8_t dup[9] = {1, 2, 3, 4, 0, 5, 6, 7, 7}, ok[9] = {1, 0, 2, 3, 4, 5, 6, 7, 8};
    np_board b = make_board(dup, 3, 3);
    assert_true(np_astar_solve(res, &b, &g, NULL) == NP_EINVAL);
    b = make_board(ok, 3, 3);
    np_search_opts opts;
    memset(&opts, 0, sizeof opts);
    opts.weight = 0.5;
    assert_true(np_astar_solve(res, &b, &g, &opts) == NP_EINVAL);
    opts.weight = 0;
    opts.heuristic = NP_H_PDB;
    assert_true(np_astar_solve(res, &b, &g, &opts) == NP_EUNSUPPORTED);
    free(res);
}

/* Two easy instances of Korf's 100 (#79, 42 moves; #55, 41 moves): A* with
 * 16 cells packs states into 64 bits and finds the published optimum. */
static void test_astar_15puzzle_easy(void **state)
{
    (void)state;
    static const struct {
        int id, opt;
        uint8_t t[16];
    } inst[] = {
        {79, 42, {0, 1, 9, 7, 11, 13, 5, 3, 14, 12, 4, 2, 8, 6, 10, 15}},
        {55, 41, {13, 8, 14, 3, 9, 1, 0, 7, 15, 5, 4, 10, 12, 2, 6, 11}},
    };
    np_geom g;
    assert_true(np_geom_init(&g, 4, 4, NP_GOAL_BLANK_FIRST) == NP_OK);
    np_result *res = malloc(sizeof *res);
    assert_non_null(res);
    for (size_t i = 0; i < 2; i++)
        for (int h = NP_H_MD; h <= NP_H_LC; h++) {
            np_board b = make_board(inst[i].t, 4, 4);
            np_search_opts opts;
            memset(&opts, 0, sizeof opts);
            opts.heuristic = (np_hkind)h;
            opts.max_memory = (uint64_t)1 << 30;
            assert_true(np_astar_solve(res, &b, &g, &opts) == NP_OK);
            print_message("Korf #%d A*-%s: status %d length %d, %llu expanded, %.2f s\n",
                          inst[i].id, np_hkind_name((np_hkind)h), (int)res->status, res->length,
                          (unsigned long long)res->expanded, res->seconds);
            assert_int_equal(res->status, NP_STATUS_SOLVED);
            assert_int_equal(res->length, inst[i].opt);
            int at_goal = 0;
            assert_int_equal(replay(inst[i].t, 4, 4, 0, res->moves, &at_goal), inst[i].opt);
            assert_true(at_goal);
        }
    free(res);
}

/* A memory budget too small to hold the search stops it cleanly (no crash, no
 * leak under ASan) with NP_STATUS_LIMIT; both a budget that cannot hold even the
 * first table and one that is exhausted part-way. */
static void test_astar_memory_limit(void **state)
{
    (void)state;
    /* Korf #1 (57 moves) and #3 (59 moves): far beyond a few MiB of A*. */
    static const uint8_t k1[16] = {14, 13, 15, 7, 11, 12, 9, 5, 6, 0, 2, 1, 4, 8, 10, 3};
    static const uint8_t k3[16] = {14, 7, 8, 2, 13, 11, 10, 4, 9, 12, 5, 0, 3, 6, 1, 15};
    np_geom g;
    assert_true(np_geom_init(&g, 4, 4, NP_GOAL_BLANK_FIRST) == NP_OK);
    np_result *res = malloc(sizeof *res);
    assert_non_null(res);
    static const uint64_t budgets[] = {4096, (uint64_t)8 << 20};
    const uint8_t *boards[] = {k1, k3};
    for (size_t i = 0; i < 2; i++) {
        np_board b = make_board(boards[i], 4, 4);
        np_search_opts opts;
        memset(&opts, 0, sizeof opts);
        opts.heuristic = NP_H_MD;
        opts.max_memory = budgets[i];
        double t0 = now();
        int rc = np_astar_solve(res, &b, &g, &opts);
        print_message("max_memory %llu: rc %d status %d, %llu expanded, %.2f s\n",
                      (unsigned long long)budgets[i], rc, (int)res->status,
                      (unsigned long long)res->expanded, now() - t0);
        assert_true(rc == NP_OK);
        assert_int_equal(res->status, NP_STATUS_LIMIT);
        assert_int_equal(res->length, -1);
        assert_int_equal(res->moves[0], 0);
    }
    free(res);
}

/* A /proc/self/status field in kB (VmRSS, VmHWM); -1 when unreadable. */
static long status_kb(const char *field)
{
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    long kb = -1;
    size_t n = strlen(field);
    while (f && fgets(line, sizeof line, f))
        if (!strncmp(line, field, n) && line[n] == ':')
            kb = strtol(line + n + 1, NULL, 10);
    if (f)
        fclose(f);
    return kb;
}

/* --max-memory bounds the peak: the closed table's old and new arrays while it
 * grows, and the open list's old and new blocks, count together. Measured in
 * a child: its resident high-water mark, reset before the search (clear_refs
 * 5), may pass its start by the budget and a little (the result, stacks).
 * Not under AddressSanitizer, whose shadow memory and quarantine are resident
 * too. */
static void test_astar_memory_peak(void **state)
{
    (void)state;
#if defined(__SANITIZE_ADDRESS__)
    skip();
#endif
    static const uint8_t k1[16] = {14, 13, 15, 7, 11, 12, 9, 5, 6, 0, 2, 1, 4, 8, 10, 3};
    const uint64_t budget = (uint64_t)64 << 20;
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        np_geom g;
        np_geom_init(&g, 4, 4, NP_GOAL_BLANK_FIRST);
        np_board b = make_board(k1, 4, 4);
        np_search_opts opts;
        memset(&opts, 0, sizeof opts);
        opts.heuristic = NP_H_MD;
        opts.max_memory = budget;
        static np_result res;
        FILE *cr = fopen("/proc/self/clear_refs", "w");
        if (!cr || fputs("5", cr) < 0 || fclose(cr) != 0)
            _exit(77); /* no way to reset the mark */
        long rss0 = status_kb("VmRSS");
        int rc = np_astar_solve(&res, &b, &g, &opts);
        long hwm = status_kb("VmHWM");
        fprintf(stderr, "peak %ld kB over a start of %ld kB, budget %llu kB\n", hwm - rss0, rss0,
                (unsigned long long)(budget >> 10));
        if (rc != NP_OK || res.status != NP_STATUS_LIMIT || rss0 < 0 || hwm < 0)
            _exit(2);
        _exit(hwm - rss0 <= (long)(budget >> 10) + 2048 ? 0 : 1);
    }
    int st = 0;
    assert_int_equal(waitpid(pid, &st, 0), pid);
    assert_true(WIFEXITED(st));
    if (WEXITSTATUS(st) == 77)
        skip();
    assert_int_equal(WEXITSTATUS(st), 0);
}

/* The batch driver with A*: same answers with 1 and 2 threads, in input order. */
static void test_batch_astar(void **state)
{
    (void)state;
    enum { N = 40 };
    np_geom g;
    assert_true(np_geom_init(&g, 3, 3, NP_GOAL_BLANK_FIRST) == NP_OK);
    np_board *boards = calloc(N, sizeof *boards);
    np_result *r1 = calloc(N, sizeof *r1), *r2 = calloc(N, sizeof *r2);
    assert_non_null(boards);
    assert_non_null(r1);
    assert_non_null(r2);
    uint8_t p[9];
    for (int i = 0; i < N; i++) {
        perm_unrank(sample33[(size_t)i * (nsample33 / N)], p, 9);
        boards[i] = make_board(p, 3, 3);
    }
    np_search_opts opts;
    memset(&opts, 0, sizeof opts);
    opts.heuristic = NP_H_LC;
    np_batch_opts b1, b2;
    memset(&b1, 0, sizeof b1);
    memset(&b2, 0, sizeof b2);
    b1.algorithm = b2.algorithm = NP_ALG_ASTAR;
    b1.threads = 1;
    b2.threads = 2;
    assert_true(np_batch_solve(r1, boards, N, &g, &opts, &b1) == NP_OK);
    assert_true(np_batch_solve(r2, boards, N, &g, &opts, &b2) == NP_OK);
    for (int i = 0; i < N; i++) {
        int want = or33.dist[sample33[(size_t)i * (nsample33 / N)]];
        assert_int_equal(r1[i].status, NP_STATUS_SOLVED);
        assert_int_equal(r1[i].length, want);
        assert_int_equal(r2[i].length, want);
        assert_int_equal(r1[i].generated, r2[i].generated);
        assert_int_equal(r1[i].expanded, r2[i].expanded);
        assert_string_equal(r1[i].moves, r2[i].moves);
    }
    free(boards);
    free(r1);
    free(r2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        TIMED_TEST(test_oracle_sample),       TIMED_TEST(test_astar_size_limit),
        TIMED_TEST(test_astar_hardest8),      TIMED_TEST(test_astar_3x3_sample_md),
        TIMED_TEST(test_astar_3x3_sample_lc), TIMED_TEST(test_astar_small_boards),
        TIMED_TEST(test_astar_blank_last),    TIMED_TEST(test_astar_weighted),
        TIMED_TEST(test_astar_weight_tenths), TIMED_TEST(test_astar_max_nodes),
        TIMED_TEST(test_astar_unsolvable),    TIMED_TEST(test_astar_15puzzle_easy),
        TIMED_TEST(test_astar_memory_limit),  TIMED_TEST(test_astar_memory_peak),
        TIMED_TEST(test_batch_astar),
    };
    /* NPUZZLE_TEST_FILTER=pattern runs only the matching tests (while debugging). */
    const char *filter = getenv("NPUZZLE_TEST_FILTER");
    if (filter && *filter)
        cmocka_set_test_filter(filter);
    return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
