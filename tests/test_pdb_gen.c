/* test_pdb_gen.c - the PDB generator against a slow reference builder and a full 8-puzzle BFS. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "suites.h"

#include "npuzzle/board.h"
#include "npuzzle/error.h"
#include "npuzzle/pdb_file.h"
#include "npuzzle/pdb_gen.h"
#include "npuzzle/rank.h"

#define UNSEEN 0xFF

/* A cell's label by the definition in board.h (rows as a snake: even rows
 * left to right, odd rows right to left); PDB tables rank labels. Its own
 * inverse: it maps a label back to its cell. */
static int snake(int cols, int c)
{
    int r = c / cols, x = c % cols;
    return r * cols + (r % 2 ? cols - 1 - x : x);
}

/* ---- the reference: explicit (tile cells, blank cell) states ------------
 *
 * Shares nothing with pdb_gen: its own neighbours and goal cells from the
 * board's size, a mixed-radix index (cell of tile 0, ..., cell of tile k-1,
 * blank cell) in base n, and a 0/1 BFS with a deque: the blank stepping onto
 * a free cell costs 0 (pushed at the front), stepping onto a pattern tile
 * moves that tile and costs 1 (pushed at the back). */

typedef struct ref_board {
    int rows, cols, n;
    int nbr[64][4];
    int tile_home[64]; /* by tile number; [0] is the blank's */
} ref_board;

static void ref_board_init(ref_board *b, int rows, int cols, np_goal goal)
{
    b->rows = rows;
    b->cols = cols;
    b->n = rows * cols;
    for (int c = 0; c < b->n; c++) {
        int r = c / cols, k = c % cols;
        b->nbr[c][0] = r > 0 ? c - cols : -1;
        b->nbr[c][1] = k > 0 ? c - 1 : -1;
        b->nbr[c][2] = k < cols - 1 ? c + 1 : -1;
        b->nbr[c][3] = r < rows - 1 ? c + cols : -1;
    }
    for (int t = 0; t < b->n; t++)
        b->tile_home[t] = goal == NP_GOAL_BLANK_FIRST ? t : (t == 0 ? b->n - 1 : t - 1);
}

static uint64_t ipow(uint64_t a, int e)
{
    uint64_t v = 1;
    while (e-- > 0)
        v *= a;
    return v;
}

static void ref_decode(const ref_board *b, int k, uint64_t idx, int *cells, int *blank)
{
    *blank = (int)(idx % (uint64_t)b->n);
    idx /= (uint64_t)b->n;
    for (int i = k - 1; i >= 0; i--) {
        cells[i] = (int)(idx % (uint64_t)b->n);
        idx /= (uint64_t)b->n;
    }
}

static uint64_t ref_encode(const ref_board *b, int k, const int *cells, int blank)
{
    uint64_t idx = 0;
    for (int i = 0; i < k; i++)
        idx = idx * (uint64_t)b->n + (uint64_t)cells[i];
    return idx * (uint64_t)b->n + (uint64_t)blank;
}

/* Distance of every (placement, blank cell) state to the goal placement with
 * the blank on cell start_blank; UNSEEN if unreachable (including encodings
 * with two tiles or the blank on one cell). */
static uint8_t *ref_bfs(const ref_board *b, const uint8_t *tiles, int k, int start_blank,
                        uint64_t *out_nstates)
{
    uint64_t nstates = ipow((uint64_t)b->n, k + 1);
    uint8_t *dist = malloc(nstates);
    uint64_t cap = 2 * nstates + 2;
    uint64_t *dq = malloc(cap * sizeof *dq);
    assert_non_null(dist);
    assert_non_null(dq);
    memset(dist, UNSEEN, nstates);
    int cells[16];
    for (int i = 0; i < k; i++)
        cells[i] = b->tile_home[tiles[i]];
    uint64_t start = ref_encode(b, k, cells, start_blank);
    /* A ring buffer [head, tail): counters start far from 0 so that pushing
     * at the front (head - 1) never wraps the counter itself. */
    uint64_t head = UINT64_C(1) << 62, tail = head;
    dist[start] = 0;
    dq[tail++ % cap] = start;
    while (head != tail) {
        uint64_t s = dq[head++ % cap];
        int blank;
        ref_decode(b, k, s, cells, &blank);
        int d0 = dist[s];
        for (int d = 0; d < 4; d++) {
            int y = b->nbr[blank][d];
            if (y < 0)
                continue;
            int who = -1;
            for (int i = 0; i < k; i++)
                if (cells[i] == y)
                    who = i;
            int ncells[16];
            memcpy(ncells, cells, sizeof ncells);
            int cost = 0;
            if (who >= 0) {
                ncells[who] = blank;
                cost = 1;
            }
            uint64_t t = ref_encode(b, k, ncells, y);
            if (dist[t] != UNSEEN && dist[t] <= d0 + cost)
                continue;
            dist[t] = (uint8_t)(d0 + cost);
            if (cost == 0) {
                dq[--head % cap] = t; /* push front */
            } else {
                dq[tail++ % cap] = t;
            }
            assert_true(tail - head <= cap);
        }
    }
    free(dq);
    *out_nstates = nstates;
    return dist;
}

/* The placement of the reference's states s .. s + n - 1 (s a multiple of n):
 * *used gets its cells, pc[] their labels in tile order (np_rank's input).
 * @return false when two tiles share a cell (no placement). */
static bool ref_placement(const ref_board *b, int k, uint64_t s, uint64_t *used, uint8_t *pc)
{
    int cells[16], blank;
    ref_decode(b, k, s, cells, &blank);
    *used = 0;
    for (int i = 0; i < k; i++) {
        if (*used >> cells[i] & 1)
            return false;
        *used |= UINT64_C(1) << cells[i];
        pc[i] = (uint8_t)snake(b->cols, cells[i]);
    }
    return true;
}

/* Compare the generator (the goal's blank in goal_region's region: 0 its home
 * cell's, c + 1 cell c's) with the reference started with the blank on cell
 * ref_blank (-1: its home), placement by placement. @return how many values
 * differ from the standard table's (the generator's with goal_region 0). */
static uint64_t check_region(int rows, int cols, np_goal goal, const uint8_t *tiles, int k,
                             int goal_region, int ref_blank);

static void check_against_reference(int rows, int cols, np_goal goal, const uint8_t *tiles, int k)
{
    check_region(rows, cols, goal, tiles, k, 0, -1);
}

static uint64_t check_region(int rows, int cols, np_goal goal, const uint8_t *tiles, int k,
                             int goal_region, int ref_blank)
{
    np_geom g;
    assert_int_equal(np_geom_init(&g, rows, cols, goal), NP_OK);
    ref_board b;
    ref_board_init(&b, rows, cols, goal);

    uint8_t *values = NULL;
    uint64_t entries = 0;
    np_pdb_gen_opts opts = {.threads = 2, .goal_region = goal_region};
    assert_int_equal(np_pdb_generate(&values, &entries, &g, tiles, k, &opts), NP_OK);
    assert_non_null(values);
    uint8_t *standard = NULL;
    uint64_t differ = 0;
    opts.goal_region = 0;
    assert_int_equal(np_pdb_generate(&standard, &entries, &g, tiles, k, &opts), NP_OK);
    for (uint64_t i = 0; i < entries; i++)
        differ += standard[i] != values[i];
    free(standard);

    uint64_t nstates;
    uint8_t *dist = ref_bfs(&b, tiles, k, ref_blank >= 0 ? ref_blank : b.tile_home[0], &nstates);
    np_ranker rk;
    assert_int_equal(np_ranker_init(&rk, b.n, k), NP_OK);
    assert_true(entries == rk.count);

    uint64_t placements = 0, mismatches = 0;
    for (uint64_t s = 0; s < nstates; s += (uint64_t)b.n) {
        uint64_t used;
        uint8_t pc[16];
        if (!ref_placement(&b, k, s, &used, pc))
            continue;
        int best = UNSEEN;
        for (int c = 0; c < b.n; c++)
            if (dist[s + (uint64_t)c] < best)
                best = dist[s + (uint64_t)c];
        assert_true(best != UNSEEN); /* every placement is reachable */
        uint8_t got = values[np_rank(&rk, pc)];
        if (got != best && mismatches++ < 5)
            print_error("%dx%d k=%d: placement %llu: generator %d, reference %d\n", rows, cols, k,
                        (unsigned long long)(s / (uint64_t)b.n), got, best);
        placements++;
    }
    assert_true(mismatches == 0);
    assert_true(placements == entries);
    free(dist);
    free(values);
    return differ;
}

/* Tables for the dual lookups: the goal with the blank in another region.
 * Patterns that wall the blank's home cell in (found by hand): each has one
 * other region, named by its least cell; its table is the reference BFS
 * started with the blank on any cell of that region, and differs from the
 * standard one. A home cell of the pattern is refused. */
static void test_ref_goal_regions(void **state)
{
    (void)state;
    static const uint8_t p3[] = {1, 3}, p4[] = {1, 2, 3, 4, 5}, p3l[] = {6, 8};
    int regions[NP_MAX_CELLS];
    np_geom g3, g4, g3l;
    assert_int_equal(np_geom_init(&g3, 3, 3, NP_GOAL_BLANK_FIRST), NP_OK);
    assert_int_equal(np_geom_init(&g4, 4, 4, NP_GOAL_BLANK_FIRST), NP_OK);
    assert_int_equal(np_geom_init(&g3l, 3, 3, NP_GOAL_BLANK_LAST), NP_OK);
    /* 3x3, tiles 1 and 3 at home wall cell 0 in: the rest starts at cell 2 */
    assert_int_equal(np_pdb_goal_regions(&g3, p3, 2, regions, NULL), 1);
    assert_int_equal(regions[0], 2 + 1);
    assert_true(check_region(3, 3, NP_GOAL_BLANK_FIRST, p3, 2, 3, 2) > 0);
    assert_true(check_region(3, 3, NP_GOAL_BLANK_FIRST, p3, 2, 3, 8) > 0);
    /* 4x4, tiles 1..5 at home (cells 1..5) wall cell 0 in: the rest starts at 6 */
    assert_int_equal(np_pdb_goal_regions(&g4, p4, 5, regions, NULL), 1);
    assert_int_equal(regions[0], 6 + 1);
    assert_true(check_region(4, 4, NP_GOAL_BLANK_FIRST, p4, 5, 7, 15) > 0);
    /* blank-last 3x3: tiles 6 and 8 home on cells 5 and 7 wall cell 8 in */
    assert_int_equal(np_pdb_goal_regions(&g3l, p3l, 2, regions, NULL), 1);
    assert_int_equal(regions[0], 0 + 1);
    assert_true(check_region(3, 3, NP_GOAL_BLANK_LAST, p3l, 2, 1, 4) > 0);
    /* a pattern that walls nothing in has no other region */
    static const uint8_t open[] = {5, 6, 7, 8};
    assert_int_equal(np_pdb_goal_regions(&g3, open, 4, regions, NULL), 0);
    /* the goal's blank on a home of the pattern, or off the board: refused */
    uint8_t *values = NULL;
    uint64_t entries = 0;
    np_pdb_gen_opts bad = {.goal_region = 1 + 1};
    assert_int_equal(np_pdb_generate(&values, &entries, &g3, p3, 2, &bad), NP_EINVAL);
    bad.goal_region = 10;
    assert_int_equal(np_pdb_generate(&values, &entries, &g3, p3, 2, &bad), NP_EINVAL);
    assert_null(values);
}

static void test_ref_3x3(void **state)
{
    (void)state;
    static const uint8_t a[] = {1, 2, 3, 4}, b[] = {5, 6, 7, 8};
    check_against_reference(3, 3, NP_GOAL_BLANK_FIRST, a, 4);
    check_against_reference(3, 3, NP_GOAL_BLANK_FIRST, b, 4);
}

static void test_ref_4x4(void **state)
{
    (void)state;
    static const uint8_t a[] = {1, 2, 3}, b[] = {5, 10, 15}, c[] = {12, 7, 9}, d[] = {1, 4, 5, 8};
    check_against_reference(4, 4, NP_GOAL_BLANK_FIRST, a, 3);
    check_against_reference(4, 4, NP_GOAL_BLANK_FIRST, b, 3);
    check_against_reference(4, 4, NP_GOAL_BLANK_FIRST, c, 3);
    check_against_reference(4, 4, NP_GOAL_BLANK_FIRST, d, 4);
}

static void test_ref_other_shapes(void **state)
{
    (void)state;
    static const uint8_t a[] = {2, 5, 6, 9}, b[] = {1, 6, 7, 3};
    check_against_reference(3, 4, NP_GOAL_BLANK_FIRST, a, 4);
    check_against_reference(2, 5, NP_GOAL_BLANK_FIRST, b, 4);
    check_against_reference(4, 3, NP_GOAL_BLANK_FIRST, a, 3);
}

/* Patterns of 5 and 6 tiles: 120 and 720 orders, more than one block of the
 * generator's final renumbering (64 orders each), the last one partial. */
static void test_ref_many_orders(void **state)
{
    (void)state;
    static const uint8_t a[] = {1, 2, 3, 4, 5}, b[] = {7, 3, 9, 1, 5, 11};
    check_against_reference(3, 3, NP_GOAL_BLANK_FIRST, a, 5);
    check_against_reference(3, 4, NP_GOAL_BLANK_LAST, b, 6);
}

static void test_ref_blank_last(void **state)
{
    (void)state;
    static const uint8_t a[] = {1, 2, 3, 4}, b[] = {8, 6, 7}, c[] = {11, 14, 15};
    check_against_reference(3, 3, NP_GOAL_BLANK_LAST, a, 4);
    check_against_reference(3, 3, NP_GOAL_BLANK_LAST, b, 3);
    check_against_reference(4, 4, NP_GOAL_BLANK_LAST, c, 3);
}

/* ---- zero-aware tables: the region gains against the reference ----------
 *
 * For every placement and every free cell the reference gives the distance
 * with the blank on that cell. The regions of the free cells (connected,
 * numbered here in the order of their least snake label, by this test's own
 * flood fill) must be told apart exactly: region r < NP_PDB_GAIN_REGIONS has
 * its bit set iff its distance exceeds the placement's least, and then by at
 * least 2; no bit beyond the regions there are. The values are the standard
 * table's. */
static void check_gains(int rows, int cols, np_goal goal, const uint8_t *tiles, int k,
                        int goal_region, int ref_blank, uint64_t *gaining, uint64_t *pairs)
{
    np_geom g;
    assert_int_equal(np_geom_init(&g, rows, cols, goal), NP_OK);
    ref_board b;
    ref_board_init(&b, rows, cols, goal);
    uint8_t *values = NULL, *gain = NULL, *standard = NULL;
    uint64_t entries = 0;
    np_pdb_gen_opts opts = {.threads = 2, .goal_region = goal_region};
    assert_int_equal(np_pdb_generate(&standard, &entries, &g, tiles, k, &opts), NP_OK);
    opts.region_gain = &gain;
    assert_int_equal(np_pdb_generate(&values, &entries, &g, tiles, k, &opts), NP_OK);
    assert_non_null(gain);
    assert_memory_equal(values, standard, entries);
    uint64_t nstates;
    uint8_t *dist = ref_bfs(&b, tiles, k, ref_blank >= 0 ? ref_blank : b.tile_home[0], &nstates);
    np_ranker rk;
    assert_int_equal(np_ranker_init(&rk, b.n, k), NP_OK);
    uint64_t bad = 0;
    for (uint64_t s = 0; s < nstates; s += (uint64_t)b.n) {
        uint64_t used;
        uint8_t pc[16];
        if (!ref_placement(&b, k, s, &used, pc))
            continue;
        const uint64_t idx = np_rank(&rk, pc);
        const int best = values[idx];
        /* the free cells' regions, in the order of their least label */
        int region[64], nreg = 0;
        for (int c = 0; c < b.n; c++)
            region[c] = (used >> c & 1) ? -2 : -1;
        for (int label = 0; label < b.n; label++) {
            int c0 = 0;
            while (snake(cols, c0) != label)
                c0++;
            if (region[c0] != -1)
                continue;
            int stack[64], top = 0;
            stack[top++] = c0;
            region[c0] = nreg;
            while (top) {
                int c = stack[--top];
                for (int d = 0; d < 4; d++) {
                    int y = b.nbr[c][d];
                    if (y >= 0 && region[y] == -1) {
                        region[y] = nreg;
                        stack[top++] = y;
                    }
                }
            }
            nreg++;
        }
        unsigned want = 0;
        for (int c = 0; c < b.n; c++) {
            if (region[c] < 0)
                continue;
            const int dc = dist[s + (uint64_t)c];
            if (dc == best + 1 || dc < best)
                bad++; /* parity, or a value that is not the least */
            if (dc > best && region[c] < NP_PDB_GAIN_REGIONS)
                want |= 1u << region[c];
            *pairs += 1;
            *gaining += dc > best;
        }
        if (gain[idx] != want && bad++ < 5)
            print_error("%dx%d k=%d: placement %llu: gains %#x, reference %#x\n", rows, cols, k,
                        (unsigned long long)idx, gain[idx], want);
    }
    assert_true(bad == 0);
    free(dist);
    free(values);
    free(gain);
    free(standard);
}

static void test_region_gains(void **state)
{
    (void)state;
    static const uint8_t a[] = {1, 2, 3, 4}, b[] = {5, 6, 7, 8}, c[] = {1, 4, 5, 8},
                         d[] = {2, 5, 6, 9}, e[] = {1, 6, 7, 3}, f[] = {11, 14, 15};
    uint64_t gaining = 0, pairs = 0;
    check_gains(3, 3, NP_GOAL_BLANK_FIRST, a, 4, 0, -1, &gaining, &pairs);
    check_gains(3, 3, NP_GOAL_BLANK_FIRST, b, 4, 0, -1, &gaining, &pairs);
    check_gains(4, 4, NP_GOAL_BLANK_FIRST, c, 4, 0, -1, &gaining, &pairs);
    check_gains(3, 4, NP_GOAL_BLANK_FIRST, d, 4, 0, -1, &gaining, &pairs);
    check_gains(2, 5, NP_GOAL_BLANK_FIRST, e, 4, 0, -1, &gaining, &pairs);
    check_gains(4, 4, NP_GOAL_BLANK_LAST, f, 3, 0, -1, &gaining, &pairs);
    /* tables whose goal has the blank in another region (the dual lookups'
     * with --zero-aware): the reference searches from a cell of that region */
    static const uint8_t w3[] = {1, 3, 5}, w4[] = {1, 2, 3, 4}, wl[] = {6, 8, 1};
    check_gains(3, 3, NP_GOAL_BLANK_FIRST, w3, 3, 4 + 1, 8, &gaining, &pairs);
    check_gains(3, 3, NP_GOAL_BLANK_FIRST, w3, 3, 2 + 1, 2, &gaining, &pairs);
    check_gains(4, 4, NP_GOAL_BLANK_FIRST, w4, 4, 6 + 1, 15, &gaining, &pairs);
    check_gains(3, 3, NP_GOAL_BLANK_LAST, wl, 3, 1 + 1, 4, &gaining, &pairs);
    /* the check saw both kinds of (placement, blank cell) pair, many times */
    assert_true(gaining > 1000 && gaining < pairs / 2);
}

/* A region gain array is refused by the 4-bit and 8-bit encodings, and the
 * zero-aware encoding without one: nothing is written. */
static void test_region_gain_encoding(void **state)
{
    (void)state;
    np_geom g;
    assert_int_equal(np_geom_init(&g, 3, 3, NP_GOAL_BLANK_FIRST), NP_OK);
    static const uint8_t t[] = {1, 2, 3, 4};
    uint8_t *values = NULL, *gain = NULL;
    uint64_t entries = 0;
    np_pdb_gen_opts opts = {.threads = 1, .region_gain = &gain};
    assert_int_equal(np_pdb_generate(&values, &entries, &g, t, 4, &opts), NP_OK);
    assert_non_null(values);
    assert_non_null(gain);
    char path[] = "/tmp/npuzzle-test-gain-XXXXXX", file[64], err[512];
    assert_non_null(mkdtemp(path));
    snprintf(file, sizeof file, "%s/t.pdb", path);
    np_pdb_write_opts wo = {.encoding = NP_PDB_ENC_4BIT, .region_gain = gain};
    assert_int_equal(np_pdb_write(file, &g, t, 4, values, entries, &wo, NULL, err, sizeof err),
                     NP_EINVAL);
    wo = (np_pdb_write_opts){.encoding = NP_PDB_ENC_ZA};
    assert_int_equal(np_pdb_write(file, &g, t, 4, values, entries, &wo, NULL, err, sizeof err),
                     NP_EINVAL);
    assert_int_equal(access(file, F_OK), -1);
    /* and round trips through the file when asked right */
    wo = (np_pdb_write_opts){.region_gain = gain};
    np_pdb_write_info wi;
    assert_int_equal(np_pdb_write(file, &g, t, 4, values, entries, &wo, &wi, err, sizeof err),
                     NP_OK);
    assert_int_equal(wi.encoding, NP_PDB_ENC_ZA);
    np_pdb *pdb = NULL;
    assert_int_equal(np_pdb_open(&pdb, file, NULL, err, sizeof err), NP_OK);
    np_pdb_view v = np_pdb_get_view(pdb);
    np_ranker rk;
    assert_int_equal(np_ranker_init(&rk, 9, 4), NP_OK);
    np_geom lab;
    assert_int_equal(np_geom_labelled(&g, &lab), NP_OK);
    uint64_t i = 0;
    np_rank_iter it;
    np_rank_iter_init(&it, &rk, 0);
    for (;;) {
        int md = 0;
        for (int j = 0; j < 4; j++)
            md += lab.dist[it.cell[j]][lab.home[t[j]]];
        assert_int_equal(np_pdb_view_value(&v, i, md), values[i]);
        assert_int_equal(np_pdb_gain_za(v.payload, i), gain[i]);
        if (++i == entries)
            break;
        np_rank_iter_next(&it);
    }
    np_pdb_close(pdb);
    unlink(file);
    rmdir(path);
    free(values);
    free(gain);
}

/* ---- determinism across thread counts ------------------------------------ */

static void test_threads_identical(void **state)
{
    (void)state;
    np_geom g;
    assert_int_equal(np_geom_init(&g, 4, 4, NP_GOAL_BLANK_FIRST), NP_OK);
    static const uint8_t tiles[] = {3, 6, 7, 10, 11};
    uint8_t *v1 = NULL, *v2 = NULL;
    uint64_t e1 = 0, e2 = 0;
    np_pdb_gen_opts o1 = {.threads = 1}, o2 = {.threads = 2};
    assert_int_equal(np_pdb_generate(&v1, &e1, &g, tiles, 5, &o1), NP_OK);
    assert_int_equal(np_pdb_generate(&v2, &e2, &g, tiles, 5, &o2), NP_OK);
    assert_true(e1 == 16ull * 15 * 14 * 13 * 12);
    assert_true(e1 == e2);
    assert_memory_equal(v1, v2, e1);
    free(v1);
    free(v2);
}

/* ---- the 8-puzzle: admissibility against a full BFS ---------------------- */

/* Lehmer rank of a permutation of 0..8, the slow O(n^2) way. */
static uint32_t perm9_rank(const uint8_t *p)
{
    uint32_t r = 0;
    for (int i = 0; i < 9; i++) {
        int smaller = 0;
        for (int j = i + 1; j < 9; j++)
            smaller += p[j] < p[i];
        r = r * (uint32_t)(9 - i) + (uint32_t)smaller;
    }
    return r;
}

static void test_8puzzle_admissible(void **state)
{
    (void)state;
    np_geom g;
    assert_int_equal(np_geom_init(&g, 3, 3, NP_GOAL_BLANK_FIRST), NP_OK);
    ref_board rb;
    ref_board_init(&rb, 3, 3, NP_GOAL_BLANK_FIRST);
    static const uint8_t pa[] = {1, 2, 3, 4}, pb[] = {5, 6, 7, 8};
    uint8_t *va, *vb;
    uint64_t ea, eb;
    assert_int_equal(np_pdb_generate(&va, &ea, &g, pa, 4, NULL), NP_OK);
    assert_int_equal(np_pdb_generate(&vb, &eb, &g, pb, 4, NULL), NP_OK);
    np_ranker rk;
    assert_int_equal(np_ranker_init(&rk, 9, 4), NP_OK);

    /* Plain BFS over boards (tiles[cell]) from the goal. */
    enum { NPERM = 362880 };
    uint8_t *dist = malloc(NPERM);
    uint8_t(*queue)[9] = malloc((size_t)NPERM * 9);
    assert_non_null(dist);
    assert_non_null(queue);
    memset(dist, UNSEEN, NPERM);
    size_t head = 0, tail = 0;
    for (int c = 0; c < 9; c++)
        queue[0][c] = (uint8_t)c;
    dist[perm9_rank(queue[0])] = 0;
    tail = 1;
    long checked = 0, exact = 0;
    while (head < tail) {
        uint8_t cur[9];
        memcpy(cur, queue[head++], 9);
        int d = dist[perm9_rank(cur)];
        int blank = 0;
        while (cur[blank] != 0)
            blank++;
        /* heuristic of this board */
        uint8_t ca[4], cb[4];
        int md = 0;
        for (int c = 0; c < 9; c++) {
            int t = cur[c];
            if (t == 0)
                continue;
            md += abs(c / 3 - t / 3) + abs(c % 3 - t % 3);
            if (t <= 4)
                ca[t - 1] = (uint8_t)snake(3, c);
            else
                cb[t - 5] = (uint8_t)snake(3, c);
        }
        int h = va[np_rank(&rk, ca)] + vb[np_rank(&rk, cb)];
        if (h > d || h < md)
            fail_msg("board %ld: distance %d, pdb sum %d, manhattan %d", (long)head, d, h, md);
        exact += h == d;
        checked++;
        for (int dir = 0; dir < 4; dir++) {
            int y = rb.nbr[blank][dir];
            if (y < 0)
                continue;
            uint8_t nxt[9];
            memcpy(nxt, cur, 9);
            nxt[blank] = nxt[y];
            nxt[y] = 0;
            uint32_t r = perm9_rank(nxt);
            if (dist[r] == UNSEEN) {
                dist[r] = (uint8_t)(d + 1);
                memcpy(queue[tail++], nxt, 9);
            }
        }
    }
    assert_true(checked == 181440);
    print_message("8-puzzle: %ld boards, pdb sum exact on %ld\n", checked, exact);
    free(dist);
    free(queue);
    free(va);
    free(vb);
}

/* ---- memory limit, arguments, estimate, progress -------------------------- */

static void test_too_big(void **state)
{
    (void)state;
    np_geom g;
    assert_int_equal(np_geom_init(&g, 3, 3, NP_GOAL_BLANK_FIRST), NP_OK);
    static const uint8_t tiles[] = {1, 2, 3, 4};
    np_pdb_gen_estimate est;
    assert_int_equal(np_pdb_gen_estimate_for(&est, &g, tiles, 4), NP_OK);
    assert_true(est.entries == 9 * 8 * 7 * 6);
    assert_true(est.table_bytes == est.entries);
    assert_true(est.states >= est.entries);
    assert_true(est.work_bytes > 0);
    uint8_t *v = (uint8_t *)&est; /* must be reset to NULL */
    uint64_t e = 7;
    np_pdb_gen_opts o = {.threads = 1, .max_memory = est.table_bytes + est.work_bytes - 1};
    assert_true(np_pdb_generate(&v, &e, &g, tiles, 4, &o) == NP_ETOOBIG);
    assert_null(v);
    assert_true(e == 0);
    o.max_memory = est.table_bytes + est.work_bytes;
    assert_int_equal(np_pdb_generate(&v, &e, &g, tiles, 4, &o), NP_OK);
    free(v);

    /* 24-puzzle, 12 tiles: 25!/13! bytes cannot fit anywhere. */
    np_geom g5;
    assert_int_equal(np_geom_init(&g5, 5, 5, NP_GOAL_BLANK_FIRST), NP_OK);
    static const uint8_t big[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
    assert_true(np_pdb_generate(&v, &e, &g5, big, 12, NULL) == NP_ETOOBIG);
    assert_null(v);
}

static void test_invalid(void **state)
{
    (void)state;
    np_geom g;
    assert_int_equal(np_geom_init(&g, 3, 3, NP_GOAL_BLANK_FIRST), NP_OK);
    np_pdb_gen_estimate est;
    uint8_t *v;
    uint64_t e;
    static const uint8_t blank[] = {0, 1}, dup[] = {1, 2, 1}, out[] = {1, 9},
                         many[] = {1, 2, 3, 4, 5, 6, 7};
    assert_true(np_pdb_gen_estimate_for(&est, &g, blank, 2) == NP_EINVAL);
    assert_true(np_pdb_gen_estimate_for(&est, &g, dup, 3) == NP_EINVAL);
    assert_true(np_pdb_gen_estimate_for(&est, &g, out, 2) == NP_EINVAL);
    assert_true(np_pdb_gen_estimate_for(&est, &g, many, 7) == NP_EINVAL);
    assert_true(np_pdb_gen_estimate_for(&est, &g, many, 0) == NP_EINVAL);
    assert_true(np_pdb_generate(&v, &e, &g, dup, 3, NULL) == NP_EINVAL);
    assert_null(v);
    assert_int_equal(np_pdb_gen_estimate_for(&est, &g, many, 6), NP_OK);
}

typedef struct progress_log {
    int calls, last_depth;
    uint64_t sum_states;
    np_pdb_gen_progress last;
} progress_log;

static void on_progress(void *ctx, const np_pdb_gen_progress *p)
{
    progress_log *log = ctx;
    assert_int_equal(p->depth, log->last_depth + 1);
    log->last_depth = p->depth;
    log->sum_states += p->states_at_depth;
    assert_true(log->sum_states == p->states_reached);
    assert_true(p->placements_reached <= p->placements_total);
    log->calls++;
    log->last = *p;
}

static void test_progress(void **state)
{
    (void)state;
    np_geom g;
    assert_int_equal(np_geom_init(&g, 4, 4, NP_GOAL_BLANK_FIRST), NP_OK);
    static const uint8_t tiles[] = {1, 2, 3, 4};
    progress_log log = {.last_depth = -1};
    np_pdb_gen_opts o = {.threads = 2, .progress = on_progress, .progress_ctx = &log};
    uint8_t *v;
    uint64_t e;
    assert_int_equal(np_pdb_generate(&v, &e, &g, tiles, 4, &o), NP_OK);
    np_pdb_gen_estimate est;
    assert_int_equal(np_pdb_gen_estimate_for(&est, &g, tiles, 4), NP_OK);
    assert_true(log.last.states_reached == est.states);
    assert_true(log.last.states_total == est.states);
    assert_true(log.last.placements_reached == e);
    int max = 0;
    for (uint64_t i = 0; i < e; i++)
        max = v[i] > max ? v[i] : max;
    /* the last levels may only reach other regions of known placements */
    assert_true(max <= log.last.depth && max > 0);
    free(v);
}

/* The 15-puzzle pattern 1..7: every value has the parity of the pattern's
 * Manhattan distance and is at least it; report max and mean. */
static void test_4x4_seven(void **state)
{
    (void)state;
    np_geom g;
    assert_int_equal(np_geom_init(&g, 4, 4, NP_GOAL_BLANK_FIRST), NP_OK);
    static const uint8_t tiles[] = {1, 2, 3, 4, 5, 6, 7};
    uint8_t *v;
    uint64_t e;
    np_pdb_gen_opts o = {.threads = 2};
    assert_int_equal(np_pdb_generate(&v, &e, &g, tiles, 7, &o), NP_OK);
    np_ranker rk;
    assert_int_equal(np_ranker_init(&rk, 16, 7), NP_OK);
    assert_true(e == rk.count);
    double sum = 0, md_sum = 0;
    int max = 0;
    for (uint64_t i = 0; i < e; i++) {
        assert_true(v[i] != UNSEEN);
        sum += v[i];
        max = v[i] > max ? v[i] : max;
    }
    /* spot checks of parity and Manhattan bound */
    for (uint64_t i = 0; i < e; i += 997) {
        uint8_t cells[7];
        np_unrank(&rk, i, cells);
        int md = 0;
        for (int t = 0; t < 7; t++) {
            int c = snake(4, cells[t]);
            md += abs(c / 4 - tiles[t] / 4) + abs(c % 4 - tiles[t] % 4);
        }
        assert_true(v[i] >= md);
        assert_true((v[i] - md) % 2 == 0);
    }
    for (int t = 0; t < 7; t++)
        for (int c = 0; c < 16; c++)
            md_sum += abs(c / 4 - tiles[t] / 4) + abs(c % 4 - tiles[t] % 4);
    double mean = sum / (double)e, md_mean = md_sum / 16.0;
    print_message("4x4 tiles 1..7: %llu entries, max %d, mean %.4f (manhattan mean %.4f)\n",
                  (unsigned long long)e, max, mean, md_mean);
    assert_true(mean > md_mean);
    assert_true(max >= 30 && max < 100);
    free(v);
}

int main(int argc, char **argv)
{
    const struct CMUnitTest fast[] = {
        cmocka_unit_test(test_invalid),
        cmocka_unit_test(test_too_big),
        cmocka_unit_test(test_ref_3x3),
        cmocka_unit_test(test_ref_4x4),
        cmocka_unit_test(test_ref_other_shapes),
        cmocka_unit_test(test_ref_many_orders),
        cmocka_unit_test(test_ref_blank_last),
        cmocka_unit_test(test_threads_identical),
        cmocka_unit_test(test_region_gains),
        cmocka_unit_test(test_region_gain_encoding),
        cmocka_unit_test(test_ref_goal_regions),
        cmocka_unit_test(test_progress),
        cmocka_unit_test(test_8puzzle_admissible),
    };
    const struct CMUnitTest slow[] = {
        cmocka_unit_test(test_4x4_seven),
    };
    return NP_TEST_SUITES(argc, argv, fast, NULL, NULL, slow, NULL, NULL);
}
