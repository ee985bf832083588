/* test_astar.c - A* (optimal and weighted) checked against an independent breadth-first oracle.
 *
 * The oracle (a plain BFS with its own ranking and move code, the same one as in
 * test_ida.c) gives the exact distance of every small board; every solution
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

#include <cmocka.h>

#include "npuzzle.h"

/* ---- the oracle: BFS over all permutations, sharing no code with libnpuzzle ---- */

#define OR_MAX_CELLS 9

typedef struct oracle {
    int rows, cols, n;
    int blank_last;         /* goal: 1 2 ... n-1 0 instead of 0 1 ... n-1 */
    uint32_t count;         /* n! */
    int8_t *dist;           /* distance by permutation rank, -1 when unreachable */
    int maxd;
    uint32_t reached;
    uint32_t per_dist[64];
} oracle;

static uint32_t factorial(int n)
{
    uint32_t f = 1;
    for (int i = 2; i <= n; i++)
        f *= (uint32_t)i;
    return f;
}

/* Lehmer-code rank of a permutation of 0..n-1. */
static uint32_t perm_rank(const uint8_t *p, int n)
{
    uint32_t r = 0;
    for (int i = 0; i < n; i++) {
        int smaller = 0;
        for (int j = i + 1; j < n; j++)
            smaller += p[j] < p[i];
        r = r * (uint32_t)(n - i) + (uint32_t)smaller;
    }
    return r;
}

static void perm_unrank(uint32_t r, uint8_t *p, int n)
{
    int code[OR_MAX_CELLS];
    for (int i = n - 1; i >= 0; i--) {
        code[i] = (int)(r % (uint32_t)(n - i));
        r /= (uint32_t)(n - i);
    }
    int used[OR_MAX_CELLS] = {0};
    for (int i = 0; i < n; i++) {
        int k = code[i];
        for (int v = 0; v < n; v++) {
            if (used[v])
                continue;
            if (k-- == 0) {
                p[i] = (uint8_t)v;
                used[v] = 1;
                break;
            }
        }
    }
}

static void goal_tiles(uint8_t *p, int n, int blank_last)
{
    for (int c = 0; c < n; c++)
        p[c] = (uint8_t)(blank_last ? (c + 1) % n : c);
}

static int find_blank(const uint8_t *p, int n)
{
    for (int c = 0; c < n; c++)
        if (p[c] == 0)
            return c;
    return -1;
}

/* Move the blank one step: 'U' up a row, 'D' down, 'L' left a column, 'R' right.
 * Returns 0 when the move leaves the board (p untouched). */
static int blank_step(uint8_t *p, int rows, int cols, char m)
{
    int b = find_blank(p, rows * cols);
    int r = b / cols, c = b % cols;
    switch (m) {
    case 'U': r--; break;
    case 'D': r++; break;
    case 'L': c--; break;
    case 'R': c++; break;
    default: return 0;
    }
    if (r < 0 || r >= rows || c < 0 || c >= cols)
        return 0;
    int nb = r * cols + c;
    p[b] = p[nb];
    p[nb] = 0;
    return 1;
}

/* Replay a move string on a copy of p; returns the number of moves applied, or
 * -1 when a letter is not a legal move. *at_goal tells whether the goal is reached. */
static int replay(const uint8_t *p, int rows, int cols, int blank_last, const char *moves,
                  int *at_goal)
{
    uint8_t q[64], goal[64];
    int n = rows * cols;
    memcpy(q, p, (size_t)n);
    int k = 0;
    for (; moves[k]; k++)
        if (!blank_step(q, rows, cols, moves[k]))
            return -1;
    goal_tiles(goal, n, blank_last);
    *at_goal = memcmp(q, goal, (size_t)n) == 0;
    return k;
}

static void oracle_build(oracle *o, int rows, int cols, int blank_last)
{
    memset(o, 0, sizeof *o);
    o->rows = rows;
    o->cols = cols;
    o->n = rows * cols;
    o->blank_last = blank_last;
    o->count = factorial(o->n);
    o->dist = malloc(o->count);
    uint32_t *queue = malloc(o->count * sizeof *queue);
    assert_non_null(o->dist);
    assert_non_null(queue);
    memset(o->dist, -1, o->count);
    uint8_t p[OR_MAX_CELLS];
    goal_tiles(p, o->n, blank_last);
    uint32_t head = 0, tail = 0;
    queue[tail++] = perm_rank(p, o->n);
    o->dist[queue[0]] = 0;
    static const char dirs[4] = {'U', 'D', 'L', 'R'};
    while (head < tail) {
        uint32_t r = queue[head++];
        int d = o->dist[r];
        for (int k = 0; k < 4; k++) {
            perm_unrank(r, p, o->n);
            if (!blank_step(p, rows, cols, dirs[k]))
                continue;
            uint32_t s = perm_rank(p, o->n);
            if (o->dist[s] < 0) {
                o->dist[s] = (int8_t)(d + 1);
                queue[tail++] = s;
            }
        }
    }
    o->reached = tail;
    for (uint32_t r = 0; r < o->count; r++)
        if (o->dist[r] >= 0) {
            o->per_dist[o->dist[r]]++;
            if (o->dist[r] > o->maxd)
                o->maxd = o->dist[r];
        }
    free(queue);
}

static void oracle_free(oracle *o)
{
    free(o->dist);
    o->dist = NULL;
}

/* ---- helpers ------------------------------------------------------------ */

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

static uint64_t rng_next(void)
{
    /* xorshift64*: a fixed seed, so every run tests the same boards. */
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * 2685821657736338717ull;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static np_board make_board(const uint8_t *p, int rows, int cols)
{
    np_board b;
    memset(&b, 0, sizeof b);
    b.rows = (uint8_t)rows;
    b.cols = (uint8_t)cols;
    memcpy(b.tiles, p, (size_t)(rows * cols));
    b.blank = (uint8_t)find_blank(p, rows * cols);
    return b;
}

static const char *board_str(const uint8_t *p, int n)
{
    static char buf[256];
    size_t k = 0;
    for (int i = 0; i < n; i++)
        k += (size_t)snprintf(buf + k, sizeof buf - k, "%s%d", i ? " " : "", p[i]);
    return buf;
}

/* A stratified sample: up to `per` boards of each distance 0..maxd, chosen by a
 * fixed-seed shuffle. Returns the number of ranks written to *out (malloc'd). */
static size_t stratified_sample(const oracle *o, uint32_t per, uint32_t **out)
{
    uint32_t *all = malloc(o->reached * sizeof *all);
    uint32_t *sample = malloc(o->reached * sizeof *sample);
    assert_non_null(all);
    assert_non_null(sample);
    size_t ns = 0;
    for (int d = 0; d <= o->maxd; d++) {
        uint32_t m = 0;
        for (uint32_t r = 0; r < o->count; r++)
            if (o->dist[r] == d)
                all[m++] = r;
        uint32_t take = m < per ? m : per;
        for (uint32_t i = 0; i < take; i++) {
            uint32_t j = i + (uint32_t)(rng_next() % (m - i));
            uint32_t t = all[i];
            all[i] = all[j];
            all[j] = t;
            sample[ns++] = all[i];
        }
    }
    free(all);
    *out = sample;
    return ns;
}

typedef int (*solve_fn)(np_result *, const np_board *, const np_geom *, const np_search_opts *);

/* Solve one board and check the answer against the oracle distance `opt`:
 * exact when weight <= 1, else opt <= L <= weight*opt; the path is replayed here. */
static void check_solve(solve_fn solve, const char *what, const oracle *o, const np_geom *g,
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
        fail_msg("%s-%s w=%.2f %dx%d board [%s]: length %d outside [%d, %.2f]", what, h, w,
                 o->rows, o->cols, board_str(p, o->n), res->length, opt, w * opt);
    if ((res->length - opt) % 2 != 0)
        fail_msg("%s-%s board [%s]: length %d has the wrong parity (opt %d)", what, h,
                 board_str(p, o->n), res->length, opt);
    int at_goal = 0;
    int k = replay(p, o->rows, o->cols, o->blank_last, res->moves, &at_goal);
    if (k != res->length || !at_goal)
        fail_msg("%s-%s w=%.2f board [%s]: moves \"%s\" replay to %d legal moves (length %d), "
                 "goal %s", what, h, w, board_str(p, o->n), res->moves, k, res->length,
                 at_goal ? "reached" : "NOT reached");
    int hv = opts->heuristic == NP_H_LC ? np_h_linear_conflict(&b, g) : np_h_manhattan(&b, g);
    if (res->h0 != hv)
        fail_msg("%s-%s board [%s]: h0 %d, heuristic says %d", what, h, board_str(p, o->n),
                 res->h0, hv);
    if (opt > 0 && (res->generated < (uint64_t)res->length || res->expanded < (uint64_t)res->length))
        fail_msg("%s-%s board [%s]: %llu expanded, %llu generated for a %d-move solution", what,
                 h, board_str(p, o->n), (unsigned long long)res->expanded,
                 (unsigned long long)res->generated, res->length);
    free(res);
}

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

static void run_sample(const oracle *o, const uint32_t *ranks, size_t n, np_hkind h, double weight)
{
    np_geom g;
    assert_true(np_geom_init(&g, o->rows, o->cols, o->blank_last ? NP_GOAL_BLANK_LAST
                                                                   : NP_GOAL_BLANK_FIRST) == NP_OK);
    np_search_opts opts;
    memset(&opts, 0, sizeof opts);
    opts.heuristic = h;
    opts.weight = weight;
    uint8_t p[OR_MAX_CELLS];
    for (size_t i = 0; i < n; i++) {
        perm_unrank(ranks[i], p, o->n);
        check_solve(np_astar_solve, "astar", o, &g, p, o->dist[ranks[i]], &opts);
    }
}

static void run_all(const oracle *o, np_hkind h, double weight)
{
    uint32_t *ranks = malloc(o->reached * sizeof *ranks);
    assert_non_null(ranks);
    size_t n = 0;
    for (uint32_t r = 0; r < o->count; r++)
        if (o->dist[r] >= 0)
            ranks[n++] = r;
    run_sample(o, ranks, n, h, weight);
    free(ranks);
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
    run_sample(&or33, sample33, nsample33, NP_H_MD, 0);
}

static void test_astar_3x3_sample_lc(void **state)
{
    (void)state;
    run_sample(&or33, sample33, nsample33, NP_H_LC, 0);
}

static void test_astar_hardest8(void **state)
{
    (void)state;
    static const uint8_t a[9] = {8, 0, 6, 5, 4, 7, 2, 3, 1}, b[9] = {8, 7, 6, 0, 4, 1, 2, 5, 3};
    np_geom g;
    assert_true(np_geom_init(&g, 3, 3, NP_GOAL_BLANK_FIRST) == NP_OK);
    for (int h = NP_H_MD; h <= NP_H_LC; h++) {
        np_search_opts opts;
        memset(&opts, 0, sizeof opts);
        opts.heuristic = (np_hkind)h;
        check_solve(np_astar_solve, "astar", &or33, &g, a, 31, &opts);
        check_solve(np_astar_solve, "astar", &or33, &g, b, 31, &opts);
    }
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
        run_all(&or23, (np_hkind)h, 0);
        run_all(&or32, (np_hkind)h, 0);
        run_sample(&or24, ranks, n, (np_hkind)h, 0);
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
        run_sample(&or33_last, ranks, n, (np_hkind)h, 0);
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
        run_sample(&or33, part, n, (np_hkind)h, 2.0);
        run_sample(&or33, part, n, (np_hkind)h, 1.5);
    }
    free(part);
    uint32_t *ranks;
    n = stratified_sample(&or24, 10, &ranks);
    for (int h = NP_H_MD; h <= NP_H_LC; h++)
        run_sample(&or24, ranks, n, (np_hkind)h, 2.0);
    free(ranks);
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
            fail_msg("%dx%d: np_astar_solve returned %d, want NP_ETOOBIG", sizes[i][0],
                     sizes[i][1], rc);
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
    static const struct { int id, opt; uint8_t t[16]; } inst[] = {
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

/* Per-test wall time, printed so that slow parts show up in the test log. */
static double test_t0;

static int timer_start(void **state)
{
    (void)state;
    test_t0 = now();
    return 0;
}

static int timer_stop(void **state)
{
    (void)state;
    print_message("  (%.2f s)\n", now() - test_t0);
    return 0;
}

#define TIMED_TEST(f) cmocka_unit_test_setup_teardown(f, timer_start, timer_stop)

int main(void)
{
    const struct CMUnitTest tests[] = {
        TIMED_TEST(test_oracle_sample),
        TIMED_TEST(test_astar_size_limit),
        TIMED_TEST(test_astar_hardest8),
        TIMED_TEST(test_astar_3x3_sample_md),
        TIMED_TEST(test_astar_3x3_sample_lc),
        TIMED_TEST(test_astar_small_boards),
        TIMED_TEST(test_astar_blank_last),
        TIMED_TEST(test_astar_weighted),
        TIMED_TEST(test_astar_unsolvable),
        TIMED_TEST(test_astar_15puzzle_easy),
        TIMED_TEST(test_astar_memory_limit),
        TIMED_TEST(test_batch_astar),
    };
    /* NPUZZLE_TEST_FILTER=pattern runs only the matching tests (while debugging). */
    const char *filter = getenv("NPUZZLE_TEST_FILTER");
    if (filter && *filter)
        cmocka_set_test_filter(filter);
    return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
