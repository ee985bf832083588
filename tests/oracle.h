/* oracle.h - the breadth-first oracle the unit tests check the library against.
 *
 * An independent ground truth that shares no code with the library under test:
 * a plain breadth-first search over every permutation of a small board, with
 * its own permutation ranking (Lehmer code), its own move code and its own
 * replay of move strings. Nothing here calls libnpuzzle (no np_board_move, no
 * np_board_solvable, no ranker, heuristic or search); the np_board struct is
 * used only to hand a board to the library (make_board).
 *
 * Also here: a fixed-seed generator (xorshift64*) and the stratified sample
 * drawn with it, so every run tests the same boards.
 *
 * Header-only, for the tests: every function is static inline (a test uses the
 * ones it needs, the others cost nothing and draw no unused-function warning).
 * Include it after <cmocka.h> (oracle_build checks its allocations with cmocka).
 */
#ifndef NPUZZLE_TESTS_ORACLE_H
#define NPUZZLE_TESTS_ORACLE_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "npuzzle/board.h"

/* Sanitizer builds (ASan/UBSan at -O0) run the search ~12x slower than release: tests that
 * walk many boards take a sample there. */
#if defined(__SANITIZE_ADDRESS__)
#define UNDER_SANITIZER 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UNDER_SANITIZER 1
#endif
#endif
#ifndef UNDER_SANITIZER
#define UNDER_SANITIZER 0
#endif

/* ---- permutations ------------------------------------------------------- */

#define OR_MAX_CELLS 10 /* the oracle's boards: n! states, so 3x3, 2x4 and 2x5 at the most */

static inline uint32_t factorial(int n)
{
    uint32_t f = 1;
    for (int i = 2; i <= n; i++)
        f *= (uint32_t)i;
    return f;
}

/* Lehmer-code rank of a permutation of 0..n-1 (most significant digit first). */
static inline uint32_t perm_rank(const uint8_t *p, int n)
{
    uint32_t r = 0;
    for (int i = 0; i < n; i++) {
        uint32_t smaller = 0;
        for (int j = i + 1; j < n; j++)
            smaller += p[j] < p[i];
        r = r * (uint32_t)(n - i) + smaller;
    }
    return r;
}

static inline void perm_unrank(uint32_t r, uint8_t *p, int n)
{
    int code[OR_MAX_CELLS] = {0};
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

/* ---- boards and moves --------------------------------------------------- */

/* The goal: 0 1 ... n-1 (blank first), or 1 2 ... n-1 0 when blank_last. */
static inline void goal_tiles(uint8_t *p, int n, int blank_last)
{
    for (int c = 0; c < n; c++)
        p[c] = (uint8_t)(blank_last ? (c + 1) % n : c);
}

static inline int find_blank(const uint8_t *p, int n)
{
    for (int c = 0; c < n; c++)
        if (p[c] == 0)
            return c;
    return -1;
}

/* Move the blank one step: 'U' up a row, 'D' down, 'L' left a column, 'R' right.
 * Returns 0 when the move leaves the board (p untouched). */
static inline int blank_step(uint8_t *p, int rows, int cols, char m)
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
static inline int replay(const uint8_t *p, int rows, int cols, int blank_last, const char *moves,
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

/* 1 when every move of `moves` is legal from p, there are `want_len` of them
 * and they reach the goal; else 0. */
static inline int replays_to_goal(const uint8_t *p, int rows, int cols, int blank_last,
                                  const char *moves, int want_len)
{
    int at_goal = 0;
    return replay(p, rows, cols, blank_last, moves, &at_goal) == want_len && at_goal;
}

/* The board with tiles p (cell c holds tile p[c]), to hand to the library. */
static inline np_board make_board(const uint8_t *p, int rows, int cols)
{
    np_board b;
    memset(&b, 0, sizeof b);
    b.rows = (uint8_t)rows;
    b.cols = (uint8_t)cols;
    memcpy(b.tiles, p, (size_t)(rows * cols));
    b.blank = (uint8_t)find_blank(p, rows * cols);
    return b;
}

/* "t0 t1 ...", in a static buffer (for failure messages). */
static inline const char *board_str(const uint8_t *p, int n)
{
    static char buf[256];
    size_t k = 0;
    for (int i = 0; i < n; i++)
        k += (size_t)snprintf(buf + k, sizeof buf - k, "%s%d", i ? " " : "", p[i]);
    return buf;
}

/* ---- the oracle: BFS over all permutations ------------------------------ */

typedef struct oracle {
    int rows, cols, n;
    int blank_last; /* goal: 1 2 ... n-1 0 instead of 0 1 ... n-1 */
    uint32_t count; /* n! */
    int8_t *dist;   /* distance by perm_rank, -1 when unreachable from the goal */
    int maxd;
    uint32_t reached;
    uint32_t per_dist[64]; /* how many boards at each distance */
} oracle;

/* Breadth-first search from the goal over all n! arrangements. At most half of
 * them can be reached (the other parity class), which the queue checks. */
static inline void oracle_build(oracle *o, int rows, int cols, int blank_last)
{
    memset(o, 0, sizeof *o);
    o->rows = rows;
    o->cols = cols;
    o->n = rows * cols;
    o->blank_last = blank_last;
    o->count = factorial(o->n);
    o->dist = malloc(o->count);
    uint32_t *queue = malloc(o->count / 2 * sizeof *queue);
    assert_non_null(o->dist);
    assert_non_null(queue);
    memset(o->dist, -1, o->count);
    uint8_t p[OR_MAX_CELLS], q[OR_MAX_CELLS];
    goal_tiles(p, o->n, blank_last);
    uint32_t head = 0, tail = 0;
    queue[tail++] = perm_rank(p, o->n);
    o->dist[queue[0]] = 0;
    static const char dirs[4] = {'U', 'D', 'L', 'R'};
    while (head < tail) {
        uint32_t r = queue[head++];
        int d = o->dist[r];
        perm_unrank(r, p, o->n);
        for (int k = 0; k < 4; k++) {
            memcpy(q, p, (size_t)o->n);
            if (!blank_step(q, rows, cols, dirs[k]))
                continue;
            uint32_t s = perm_rank(q, o->n);
            if (o->dist[s] < 0) {
                o->dist[s] = (int8_t)(d + 1);
                assert_true(tail < o->count / 2);
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

static inline void oracle_free(oracle *o)
{
    free(o->dist);
    o->dist = NULL;
}

/* ---- fixed-seed sampling ------------------------------------------------ */

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

/* xorshift64*: a fixed seed, so every run tests the same boards. */
static inline uint64_t rng_next64(void)
{
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * 2685821657736338717ull;
}

/* k distinct cells below n, uniformly at random, into cells[0..k-1] (a
 * placement of k tiles, for the tests of the index). */
static inline void random_placement(uint8_t *cells, int n, int k)
{
    uint8_t all[64];
    for (int c = 0; c < n; c++)
        all[c] = (uint8_t)c;
    for (int i = 0; i < k; i++) {
        int j = i + (int)(rng_next64() % (uint64_t)(n - i));
        uint8_t t = all[i];
        all[i] = all[j];
        all[j] = t;
        cells[i] = all[i];
    }
}

/* A stratified sample: up to `per` boards of each distance 0..maxd, chosen by a
 * fixed-seed shuffle. Returns the number of ranks written to *out (malloc'd). */
static inline size_t stratified_sample(const oracle *o, uint32_t per, uint32_t **out)
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
            uint32_t j = i + (uint32_t)(rng_next64() % (m - i));
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

#endif /* NPUZZLE_TESTS_ORACLE_H */
