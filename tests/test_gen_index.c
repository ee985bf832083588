/* test_gen_index.c - the PDB generator's (cell set, order) numbering: ranks in order, round
 * trips, and the fast step of an order rank. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "npuzzle/board.h"
#include "npuzzle/error.h"
#include "npuzzle/rank.h"
#include "gen_index.h"
#include "oracle.h"

/* C(n,k) sets times k! orders number every placement once. */
static void test_counts(void **state)
{
    (void)state;
    static const int cases[][2] = {{9, 4}, {12, 3}, {16, 8}, {25, 6}, {64, 10}};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        np_ranker r;
        np__gen_index x;
        assert_int_equal(np_ranker_init(&r, cases[c][0], cases[c][1]), NP_OK);
        assert_int_equal(np__gen_index_init(&x, cases[c][0], cases[c][1]), NP_OK);
        assert_true(r.count == x.ncombs * x.kfact);
    }
    np__gen_index x;
    assert_true(np__gen_index_init(&x, 9, 10) == NP_EINVAL);
}

/* Masks with k bits in increasing numeric order must get ranks 0, 1, 2, ...
 * (colex order of the combinatorial number system), and unrank them back. */
static void test_comb_order(void **state)
{
    (void)state;
    static const int cases[][2] = {{9, 4}, {16, 8}, {16, 1}, {12, 12}, {25, 3}};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        int n = cases[c][0], k = cases[c][1];
        np__gen_index r;
        assert_int_equal(np__gen_index_init(&r, n, k), NP_OK);
        uint64_t expect = 0;
        for (uint64_t m = 0; m < (UINT64_C(1) << n); m++) {
            if (__builtin_popcountll(m) != k)
                continue;
            assert_true(np__comb_rank(&r, m) == expect);
            assert_true(np__comb_unrank(&r, expect) == m);
            expect++;
        }
        assert_true(expect == r.ncombs);
    }
}

/* The generator's numbering (comb, perm): for random cell sets, every order
 * rank round trips through unrank_perm, and the cells it produces are
 * exactly the set. */
static void test_perm_parts(void **state)
{
    (void)state;
    static const int cases[][2] = {{9, 4}, {16, 7}, {16, 8}, {25, 6}, {20, 9}};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        int n = cases[c][0], k = cases[c][1];
        np__gen_index r;
        assert_int_equal(np__gen_index_init(&r, n, k), NP_OK);
        for (int rep = 0; rep < 3; rep++) {
            uint8_t cells[NP_RANK_MAX_K];
            random_placement(cells, n, k);
            uint64_t mask = 0;
            for (int t = 0; t < k; t++)
                mask |= UINT64_C(1) << cells[t];
            uint64_t step = r.kfact > 50000 ? r.kfact / 50000 : 1;
            for (uint64_t p = 0; p < r.kfact; p += step) {
                uint8_t out[NP_RANK_MAX_K];
                np__perm_unrank(&r, mask, p, out);
                uint64_t got = 0;
                for (int t = 0; t < k; t++)
                    got |= UINT64_C(1) << out[t];
                assert_true(got == mask);
                assert_true(np__perm_rank(&r, out, mask) == p);
            }
        }
    }
}

/* The order part ranks which tile stands on the j-th smallest cell: the
 * placement whose tiles stand on increasing cells has order rank 0, and the
 * one on decreasing cells has the last rank. */
static void test_perm_extremes(void **state)
{
    (void)state;
    np__gen_index r;
    assert_int_equal(np__gen_index_init(&r, 16, 5), NP_OK);
    uint8_t up[5] = {1, 4, 6, 9, 15}, down[5] = {15, 9, 6, 4, 1};
    uint64_t mask = 0;
    for (int t = 0; t < 5; t++)
        mask |= UINT64_C(1) << up[t];
    assert_true(np__perm_rank(&r, up, mask) == 0);
    assert_true(np__perm_rank(&r, down, mask) == r.kfact - 1);
}

/* np__perm_after_move against the definition: moving the element at one
 * position of order[] to another gives the Lehmer rank of the new order,
 * counted from scratch (oracle.h's perm_rank). */
static void test_perm_after_move(void **state)
{
    (void)state;
    for (int k = 2; k <= 12; k++) {
        np__gen_index x;
        assert_int_equal(np__gen_index_init(&x, 16, k), NP_OK);
        uint64_t w[NP_RANK_MAX_K];
        for (int j = 0; j < k; j++)
            w[j] = x.fact[k - 1 - j];
        for (int rep = 0; rep < 500; rep++) {
            uint64_t perm = rng_next64() % x.kfact;
            np__perm_cursor pc;
            np__cursor_set(&pc, k, perm);
            assert_true(perm_rank(pc.order, k) == perm);
            int from = (int)(rng_next64() % (uint64_t)k), to = (int)(rng_next64() % (uint64_t)k);
            uint8_t moved[NP_RANK_MAX_K];
            int m = 0;
            for (int i = 0; i < k; i++) {
                if (i == from)
                    continue;
                if (m == to)
                    moved[m++] = pc.order[from];
                moved[m++] = pc.order[i];
            }
            if (m == to)
                moved[m++] = pc.order[from];
            assert_int_equal(m, k);
            assert_true(np__perm_after_move(&pc, w, from, to) == perm_rank(moved, k));
        }
    }
}

/* The reference labelling: a breadth-first search from each unlabelled free
 * cell in increasing order, neighbours found from the cells' rows and
 * columns (not the geometry's neighbour table the library reads). */
static int ref_regions(const np_geom *g, uint64_t occupied, uint8_t *region)
{
    const int n = g->cells;
    int queue[NP_MAX_CELLS], nreg = 0;
    for (int c = 0; c < n; c++)
        region[c] = NP__NO_REGION;
    for (int s = 0; s < n; s++) {
        if ((occupied >> s & 1) || region[s] != NP__NO_REGION)
            continue;
        int head = 0, tail = 0;
        queue[tail++] = s;
        region[s] = (uint8_t)nreg;
        while (head < tail) {
            const int c = queue[head++];
            for (int x = 0; x < n; x++) {
                const int dr = g->row[x] - g->row[c], dc = g->col[x] - g->col[c];
                if (dr * dr + dc * dc == 1 && !(occupied >> x & 1) && region[x] == NP__NO_REGION) {
                    region[x] = (uint8_t)nreg;
                    queue[tail++] = x;
                }
            }
        }
        nreg++;
    }
    return nreg;
}

/* np__label_regions_adj numbers the free cells' regions as the reference does:
 * every cell set of the 3x3, 2x4, 4x2 and 4x4 boards (and the labelled
 * 4x4), random sets on 5x5, 3x7 and 8x8 (64 cells: the whole-word mask). */
static void test_label_regions(void **state)
{
    (void)state;
    static const int sizes[][2] = {{3, 3}, {2, 4}, {4, 2}, {4, 4}, {5, 5}, {3, 7}, {8, 8}};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        for (int labelled = 0; labelled < 2; labelled++) {
            np_geom rm, g;
            assert_int_equal(np_geom_init(&rm, sizes[i][0], sizes[i][1], NP_GOAL_BLANK_FIRST),
                             NP_OK);
            if (labelled)
                assert_int_equal(np_geom_labelled(&rm, &g), NP_OK);
            else
                g = rm;
            const int n = g.cells;
            const bool all = n <= 16;
            const uint64_t count = all ? UINT64_C(1) << n : 20000;
            uint64_t adj[NP_MAX_CELLS];
            np__region_adjacency(&g, adj);
            for (uint64_t j = 0; j < count; j++) {
                /* random sets of every density: a random word thinned by
                 * ANDing more random words */
                uint64_t occ = all ? j : rng_next64();
                for (uint64_t t = all ? 0 : j % 4; t > 0; t--)
                    occ &= rng_next64();
                if (n < 64)
                    occ &= (UINT64_C(1) << n) - 1;
                uint8_t want[NP_MAX_CELLS], got[NP_MAX_CELLS];
                const int nw = ref_regions(&g, occ, want);
                assert_int_equal(np__label_regions_adj(adj, n, occ, got), nw);
                assert_memory_equal(got, want, (size_t)n);
            }
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_counts),          cmocka_unit_test(test_comb_order),
        cmocka_unit_test(test_perm_parts),      cmocka_unit_test(test_perm_extremes),
        cmocka_unit_test(test_perm_after_move), cmocka_unit_test(test_label_regions),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
