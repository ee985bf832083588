/* test_rank.c - the placement index: rank/unrank round trips, the step of np_rank_moved, the
 * linear form, walking in index order, and the step tables carried through random walks. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "npuzzle/error.h"
#include "npuzzle/rank.h"
#include "oracle.h"

/* n!/(n-k)! by plain multiplication, independent of the ranker's tables. */
static uint64_t falling_factorial(int n, int k)
{
    uint64_t v = 1;
    for (int i = 0; i < k; i++)
        v *= (uint64_t)(n - i);
    return v;
}

/* The index by its definition (rank.h), counted cell by cell without the
 * ranker's tables: digit j = the cells below tile j's not held by a later
 * tile, weights n-k+1, n-k+2, ... growing from tile 0 up. */
static uint64_t index_by_definition(const uint8_t *cells, int n, int k)
{
    uint64_t index = 0, weight = 1;
    for (int j = 0; j < k; j++) {
        uint64_t digit = 0;
        for (int c = 0; c < cells[j]; c++) {
            bool later = false;
            for (int i = j + 1; i < k; i++)
                later = later || cells[i] == c;
            digit += !later;
        }
        assert_true(digit < (uint64_t)(n - k + 1 + j));
        index += digit * weight;
        weight *= (uint64_t)(n - k + 1 + j);
    }
    return index;
}

/* Every index of (n, k): unrank gives k distinct cells below n, rank gives
 * the index back, and so does the definition. Together with the
 * independently computed count this makes the map a bijection onto all
 * placements. */
static void exhaustive(int n, int k)
{
    np_ranker r;
    assert_int_equal(np_ranker_init(&r, n, k), NP_OK);
    assert_true(r.count == falling_factorial(n, k));
    for (uint64_t i = 0; i < r.count; i++) {
        uint8_t cells[NP_RANK_MAX_K];
        np_unrank(&r, i, cells);
        uint64_t seen = 0;
        for (int t = 0; t < k; t++) {
            assert_true(cells[t] < n);
            assert_true((seen >> cells[t] & 1) == 0);
            seen |= UINT64_C(1) << cells[t];
        }
        if (np_rank(&r, cells) != i)
            fail_msg("n=%d k=%d index %llu does not round trip", n, k, (unsigned long long)i);
        assert_true(index_by_definition(cells, n, k) == i);
    }
}

static void test_exhaustive_n9(void **state)
{
    (void)state;
    for (int k = 1; k <= 4; k++)
        exhaustive(9, k);
}

static void test_exhaustive_n12(void **state)
{
    (void)state;
    for (int k = 1; k <= 4; k++)
        exhaustive(12, k);
}

static void test_exhaustive_n16(void **state)
{
    (void)state;
    for (int k = 1; k <= 3; k++)
        exhaustive(16, k);
}

static void random_round_trips(int n, int k, int reps)
{
    np_ranker r;
    assert_int_equal(np_ranker_init(&r, n, k), NP_OK);
    assert_true(r.count == falling_factorial(n, k));
    for (int rep = 0; rep < reps; rep++) {
        uint8_t cells[NP_RANK_MAX_K], back[NP_RANK_MAX_K];
        random_placement(cells, n, k);
        uint64_t i = np_rank(&r, cells);
        assert_true(i < r.count);
        assert_true(i == index_by_definition(cells, n, k));
        assert_true(np_rank_inline(&r, cells) == i);
        np_unrank(&r, i, back);
        assert_memory_equal(cells, back, (size_t)k);
    }
}

static void test_random(void **state)
{
    (void)state;
    for (int n = 2; n <= 25; n++)
        for (int k = 1; k <= 7 && k <= n; k++)
            random_round_trips(n, k, 2000);
    for (int k = 1; k <= 6; k++)
        random_round_trips(36, k, 2000);
    random_round_trips(20, 16, 2000);
    random_round_trips(64, 8, 2000);
}

static void test_invalid(void **state)
{
    (void)state;
    np_ranker r;
    assert_true(np_ranker_init(&r, 0, 1) == NP_EINVAL);
    assert_true(np_ranker_init(&r, 9, 0) == NP_EINVAL);
    assert_true(np_ranker_init(&r, 9, 10) == NP_EINVAL);
    assert_true(np_ranker_init(&r, 40, NP_RANK_MAX_K + 1) == NP_EINVAL);
    assert_true(np_ranker_init(&r, NP_MAX_CELLS + 1, 3) == NP_EINVAL);
    assert_true(np_ranker_init(&r, 64, 16) == NP_EINVAL); /* count overflows 2^63 */
    assert_int_equal(np_ranker_init(&r, 64, 10), NP_OK);
    assert_true(r.count == falling_factorial(64, 10));
}

/* np_rank_moved (the solver's incremental update) against np_rank of the
 * placement after the step. Each placement takes a walk of random steps of
 * one tile into a free cell, the index carried from step to step as the
 * solver carries it: steps to a neighbouring cell on a square board (with
 * the cells numbered row-major, so vertical steps pass w - 1 cells) and
 * jumps to any free cell. Steps passing no tile, one tile and several, up
 * and down, must all be taken. */
static void test_moved(void **state)
{
    (void)state;
    static const int cases[][2] = {{3, 4}, {4, 7},  {4, 8},  {5, 6},
                                   {6, 5}, {4, 15}, {5, 12}, {8, 10}};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        int w = cases[c][0], n = w * w, k = cases[c][1];
        np_ranker r;
        assert_int_equal(np_ranker_init(&r, n, k), NP_OK);
        int none = 0, one = 0, many = 0, up = 0, down = 0;
        for (int rep = 0; rep < 400; rep++) {
            uint8_t cells[NP_RANK_MAX_K];
            random_placement(cells, n, k);
            uint64_t index = np_rank(&r, cells);
            for (int walk = 0; walk < 100; walk++) {
                uint64_t mask = 0;
                for (int t = 0; t < k; t++)
                    mask |= UINT64_C(1) << cells[t];
                int t = (int)(rng_next64() % (uint64_t)k), from = cells[t];
                int row = from / w, col = from % w, to;
                switch (rng_next64() % 5) {
                case 0: to = row > 0 ? from - w : -1; break;
                case 1: to = col > 0 ? from - 1 : -1; break;
                case 2: to = col < w - 1 ? from + 1 : -1; break;
                case 3: to = row < w - 1 ? from + w : -1; break;
                default: to = (int)(rng_next64() % (uint64_t)n); break;
                }
                if (to < 0 || (mask >> to & 1))
                    continue;
                int lo = from < to ? from : to, hi = from ^ to ^ lo;
                int64_t passed = 0;
                int between = 0;
                for (int u = 0; u < k; u++)
                    if (cells[u] > lo && cells[u] < hi) {
                        passed += np_rank_pass(&r, t, u);
                        between++;
                    }
                cells[t] = (uint8_t)to;
                index = np_rank_moved(index, r.weight[t], to - from, passed);
                if (index != np_rank(&r, cells))
                    fail_msg(
                        "%dx%d k=%d: tile %d %d -> %d passing %d: step gives %llu, np_rank %llu", w,
                        w, k, t, from, to, between, (unsigned long long)index,
                        (unsigned long long)np_rank(&r, cells));
                none += between == 0;
                one += between == 1;
                many += between > 1;
                up += to > from;
                down += to < from;
            }
        }
        print_message("%dx%d k=%d: steps passing 0, 1, more tiles: %d %d %d; up %d, down %d\n", w,
                      w, k, none, one, many, up, down);
        assert_true(none > 100 && one > 50 && many > 100);
        assert_true(up > 1000 && down > 1000);
    }
}

/* np_rank_linear: for random placements, the sorted cells dotted with the
 * order's coefficients, less its offset, give np_rank. */
static void test_linear(void **state)
{
    (void)state;
    static const int cases[][2] = {{9, 4}, {16, 7}, {16, 8}, {25, 6}, {36, 10}, {64, 10}, {20, 16}};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        int n = cases[c][0], k = cases[c][1];
        np_ranker r;
        assert_int_equal(np_ranker_init(&r, n, k), NP_OK);
        for (int rep = 0; rep < 2000; rep++) {
            uint8_t cells[NP_RANK_MAX_K], order[NP_RANK_MAX_K] = {0}, sorted[NP_RANK_MAX_K] = {0};
            random_placement(cells, n, k);
            int m = 0;
            for (int cell = 0; cell < n; cell++)
                for (int t = 0; t < k; t++)
                    if (cells[t] == cell) {
                        sorted[m] = (uint8_t)cell;
                        order[m++] = (uint8_t)t;
                    }
            assert_int_equal(m, k);
            uint64_t coef[NP_RANK_MAX_K], off;
            np_rank_linear(&r, order, coef, &off);
            uint64_t index = -off;
            for (int p = 0; p < k; p++)
                index += sorted[p] * coef[p];
            assert_true(index == index_by_definition(cells, n, k));
        }
    }
}

/* np_rank_iter walks every index of small (n, k) in order: its cells are
 * np_unrank's, it says exactly how many of the lightest tiles moved, and it
 * stops after the last index. */
static void test_iter(void **state)
{
    (void)state;
    static const int cases[][2] = {{9, 4}, {12, 3}, {16, 3}, {6, 6}, {4, 1}};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        int n = cases[c][0], k = cases[c][1];
        np_ranker r;
        assert_int_equal(np_ranker_init(&r, n, k), NP_OK);
        np_rank_iter it;
        np_rank_iter_init(&it, &r, 0);
        uint8_t prev[NP_RANK_MAX_K];
        for (uint64_t i = 0; i < r.count; i++) {
            uint8_t cells[NP_RANK_MAX_K];
            np_unrank(&r, i, cells);
            assert_memory_equal(it.cell, cells, (size_t)k);
            memcpy(prev, it.cell, (size_t)k);
            int moved = np_rank_iter_next(&it);
            if (i + 1 == r.count) {
                assert_int_equal(moved, 0);
                assert_memory_equal(it.cell, prev, (size_t)k);
                break;
            }
            assert_true(moved >= 1 && moved <= k);
            assert_true(it.cell[moved - 1] != prev[moved - 1]);
            for (int j = moved; j < k; j++)
                assert_int_equal(it.cell[j], prev[j]);
        }
        /* and from a start in the middle */
        uint64_t start = r.count / 3;
        np_rank_iter_init(&it, &r, start);
        for (uint64_t i = start; i < start + 50 && i < r.count; i++, np_rank_iter_next(&it))
            assert_true(np_rank(&r, it.cell) == i);
    }
}

/* np_rank_steps + np_rank_tile_tables carry a pattern's index through random
 * walks of the blank on R x C boards, with the cells numbered by the board's
 * labels (the snake) and by the labels of the mirror cells: after every move
 * the carried index equals np_rank of the labels from scratch, and now and then
 * the index by its definition. */
static void test_steps(void **state)
{
    (void)state;
    static const int cases[][3] = {{3, 3, 4}, {4, 4, 7}, {4, 4, 8}, {5, 5, 6},
                                   {3, 5, 5}, {6, 4, 6}, {8, 8, 8}};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        np_geom g;
        assert_int_equal(np_geom_init(&g, cases[c][0], cases[c][1], NP_GOAL_BLANK_FIRST), NP_OK);
        const int n = g.cells, k = cases[c][2];
        np_ranker r;
        assert_int_equal(np_ranker_init(&r, n, k), NP_OK);
        uint8_t mlabel[NP_MAX_CELLS];
        for (int x = 0; x < n; x++)
            mlabel[x] = g.label[g.mirror_cell[x]];
        for (int numbering = 0; numbering < (g.square ? 2 : 1); numbering++) {
            const uint8_t *label = numbering ? mlabel : g.label;
            static np_rank_steps steps;
            assert_int_equal(np_rank_steps_init(&steps, &g, label), NP_OK);
            /* the pattern: tiles 1..k in a shuffled order */
            uint8_t tiles[NP_RANK_MAX_K], all[NP_MAX_CELLS];
            random_placement(all, n - 1, k);
            for (int j = 0; j < k; j++)
                tiles[j] = (uint8_t)(all[j] + 1);
            static uint64_t weight[NP_MAX_CELLS];
            static int64_t pass[NP_MAX_CELLS][NP_MAX_CELLS];
            memset(weight, 0, sizeof weight);
            memset(pass, 0, sizeof pass);
            np_rank_tile_tables(&r, tiles, weight, pass);
            uint8_t board[NP_MAX_CELLS], pos[NP_MAX_CELLS];
            random_placement(board, n, n);
            for (int x = 0; x < n; x++)
                pos[board[x]] = (uint8_t)x;
            uint64_t index = np_rank_cells_of(&r, label, pos, tiles);
            int blank = pos[0], passing = 0;
            for (int walk = 0; walk < 20000; walk++) {
                int d = (int)(rng_next64() % 4), nb = g.nbr[blank][d];
                if (nb < 0)
                    continue;
                int t = board[nb];
                if (weight[t]) { /* a pattern tile slides from nb to blank */
                    int64_t passed = 0;
                    for (int q = 0; q < steps.nbetween[nb][d]; q++)
                        passed += pass[t][board[steps.between[nb][d][q]]];
                    passing += passed != 0;
                    index = np_rank_moved(index, weight[t], steps.delta[nb][d], passed);
                }
                board[blank] = (uint8_t)t;
                board[nb] = 0;
                pos[t] = (uint8_t)blank;
                pos[0] = (uint8_t)nb;
                blank = nb;
                if (index != np_rank_cells_of(&r, label, pos, tiles))
                    fail_msg("%dx%d k=%d numbering %d: walk %d, carried %llu, from scratch %llu",
                             g.rows, g.cols, k, numbering, walk, (unsigned long long)index,
                             (unsigned long long)np_rank_cells_of(&r, label, pos, tiles));
                if (walk % 97 == 0) { /* and from the definition, without the ranker */
                    uint8_t cells[NP_RANK_MAX_K];
                    for (int j = 0; j < k; j++)
                        cells[j] = label[pos[tiles[j]]];
                    if (index != index_by_definition(cells, n, k))
                        fail_msg("%dx%d k=%d numbering %d: walk %d, carried %llu, by definition "
                                 "%llu",
                                 g.rows, g.cols, k, numbering, walk, (unsigned long long)index,
                                 (unsigned long long)index_by_definition(cells, n, k));
                }
            }
            assert_true(passing > 100);
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_exhaustive_n9),  cmocka_unit_test(test_exhaustive_n12),
        cmocka_unit_test(test_exhaustive_n16), cmocka_unit_test(test_random),
        cmocka_unit_test(test_moved),          cmocka_unit_test(test_linear),
        cmocka_unit_test(test_iter),           cmocka_unit_test(test_steps),
        cmocka_unit_test(test_invalid),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
