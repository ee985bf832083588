/* test_pdb_search.c - IDA* driven by additive PDBs (with and without the reflected lookup), checked
 * against truths that share no code with the solver.
 *
 * The tables are built here (np_pdb_generate + np_pdb_write into a temporary
 * directory), then opened the way the solver opens them (np_pdbset_open).
 * Truths:
 *   - 8-puzzle: a plain BFS written below, with its own permutation ranking and
 *     move code, gives the distance of all 181,440 boards; every solution is
 *     replayed by the same independent move code.
 *   - 15-puzzle: the published optimal lengths of Korf's 100 (data/korf100.txt).
 *   - Reflection: a transpose-and-relabel written here from the definition.
 *   - Parallel search of one board: the serial search's moves and counts.
 *   - 4-bit files: the same tables written 8-bit.
 */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "suites.h"
#include <omp.h>

#include "npuzzle.h"
#include "oracle.h"

#ifndef NPUZZLE_DATA_DIR
#error "NPUZZLE_DATA_DIR must name the data/ directory"
#endif

static double wall_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* splitmix64 with a fixed seed: every run tests the same boards. */
static uint64_t prng = 0x243f6a8885a308d3ull;

static uint64_t prng_next(void)
{
    uint64_t z = (prng += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static uint32_t prng_below(uint32_t n)
{
    return (uint32_t)(prng_next() % n);
}

/* ---- independent board code: blank-first goal (cell c holds tile c) -------- */

/* The transposed, relabelled board, from the definition: the tile at cell
 * (r, c) moves to cell (c, r), and tile t is renamed to the tile whose goal
 * cell is the transpose of t's goal cell. With the blank-first goal tile t's
 * goal cell is t itself. */
static void own_mirror(uint8_t *out, const uint8_t *in, int side)
{
    for (int r = 0; r < side; r++)
        for (int c = 0; c < side; c++) {
            int t = in[r * side + c];
            int tr = t / side, tc = t % side; /* goal cell of t */
            int renamed = tc * side + tr;     /* the tile at home on its transpose */
            out[c * side + r] = (uint8_t)renamed;
        }
}

/* Solvable with the blank-first goal: the parity of the permutation (blank
 * included) equals the parity of the blank's distance to cell 0. */
static int own_solvable(const uint8_t *tiles, int rows, int cols)
{
    int n = rows * cols, inv = 0, blank = 0;
    for (int i = 0; i < n; i++) {
        if (tiles[i] == 0)
            blank = i;
        for (int j = i + 1; j < n; j++)
            inv += tiles[i] > tiles[j];
    }
    return (inv & 1) == ((blank / cols + blank % cols) & 1);
}

/* ---- the 8-puzzle oracle: BFS over the 9! permutations ------------------- */

#define P8_CELLS 9
#define P8_PERMS 362880u
#define P8_REACHABLE 181440u

static oracle p8; /* tests/oracle.h; p8.dist by perm_rank, -1 = other parity class */

static void p8_bfs(void)
{
    oracle_build(&p8, 3, 3, 0);
    assert_int_equal(p8.count, P8_PERMS);
    assert_int_equal(p8.reached, P8_REACHABLE);
}

/* ---- building a partition's tables into a temporary directory ------------ */

typedef struct tables {
    char dir[256];
    np_pdbset *set;
    np_pdbset *za; /* the zero-aware tables, when built (t[0] only) */
    double build_seconds;
} tables;

static void remove_dir(const char *dir)
{
    DIR *d = opendir(dir);
    if (d == NULL)
        return;
    struct dirent *e;
    char path[512];
    while ((e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        int len = snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        if (len > 0 && (size_t)len < sizeof path)
            unlink(path);
    }
    closedir(d);
    rmdir(dir);
}

/* Generate every pattern of `name` on g once, with the tables its dual
 * lookups use (np_pdb_dual_tables), write them into a
 * new temporary directory per entry of t[0..nt-1] (with that entry's
 * encoding), and open each directory as the solver does with --dual; with
 * `za`, t[0] also gets the zero-aware tables (the dual lookups' too, as gen
 * --dual --zero-aware writes them), opened as --dual --zero-aware opens
 * them. */
static void tables_build(tables *t, const int *encoding, int nt, const np_geom *g, const char *name,
                         bool za)
{
    char err[512] = "";
    np_partition part;
    int rc = np_partition_resolve(&part, name, g->rows, g->cols, true, err, sizeof err);
    if (rc != NP_OK)
        fail_msg("np_partition_resolve(%s): %s", name, err);
    const char *tmp = getenv("TMPDIR");
    for (int k = 0; k < nt; k++) {
        t[k].set = t[k].za = NULL;
        snprintf(t[k].dir, sizeof t[k].dir, "%s/test_pdb_search.XXXXXX",
                 tmp && *tmp ? tmp : "/tmp");
        assert_non_null(mkdtemp(t[k].dir));
    }
    double t0 = wall_now();
    for (int i = 0; i < part.npatterns; i++) {
        const np_pattern *pat = &part.patterns[i];
        np_pdb_table_spec specs[2 * NP_MAX_CELLS];
        const int ns = np_pdb_dual_tables(g, pat->tiles, pat->ntiles, specs);
        for (int r = -1; r < ns; r++) {
            const int goal_region = r < 0 ? 0 : specs[r].goal_region;
            const uint8_t *tiles = r < 0 ? pat->tiles : specs[r].tiles;
            const int ntiles = r < 0 ? pat->ntiles : specs[r].ntiles;
            uint8_t *values = NULL, *gain = NULL;
            uint64_t entries = 0;
            np_pdb_gen_opts go = {.goal_region = goal_region, .region_gain = za ? &gain : NULL};
            rc = np_pdb_generate(&values, &entries, g, tiles, ntiles, &go);
            assert_true(rc == NP_OK);
            char file[128], path[1024];
            if (gain) {
                np_pdb_filename_region_za(file, sizeof file, g, tiles, ntiles, goal_region);
                snprintf(path, sizeof path, "%s/%s", t[0].dir, file);
                np_pdb_write_opts wo = {.region_gain = gain, .goal_region = goal_region};
                rc = np_pdb_write(path, g, tiles, ntiles, values, entries, &wo, NULL, err,
                                  sizeof err);
                if (rc != NP_OK)
                    fail_msg("np_pdb_write(%s): %s", path, err);
                free(gain);
            }
            np_pdb_filename_region(file, sizeof file, g, tiles, ntiles, goal_region);
            for (int k = 0; k < nt; k++) {
                int len = snprintf(path, sizeof path, "%s/%s", t[k].dir, file);
                assert_true(len > 0 && (size_t)len < sizeof path);
                np_pdb_write_opts wo = {.encoding = encoding[k], .goal_region = goal_region};
                np_pdb_write_info info;
                rc = np_pdb_write(path, g, tiles, ntiles, values, entries, &wo, &info, err,
                                  sizeof err);
                if (rc != NP_OK)
                    fail_msg("np_pdb_write(%s): %s", path, err);
                if (encoding[k] != NP_PDB_ENC_AUTO)
                    assert_int_equal(info.encoding, encoding[k]);
            }
            free(values);
        }
    }
    for (int k = 0; k < nt; k++) {
        t[k].build_seconds = wall_now() - t0;
        rc = np_pdbset_open(&t[k].set, g, &part, t[k].dir, NP_PDBSET_DUAL, err, sizeof err);
        if (rc != NP_OK)
            fail_msg("np_pdbset_open(%s): %s", t[k].dir, err);
        assert_int_equal(np_pdbset_dual_missing(t[k].set, NULL), 0);
    }
    if (!za)
        return;
    rc = np_pdbset_open(&t[0].za, g, &part, t[0].dir, NP_PDBSET_DUAL | NP_PDBSET_ZERO_AWARE, err,
                        sizeof err);
    if (rc != NP_OK)
        fail_msg("np_pdbset_open(%s, zero-aware): %s", t[0].dir, err);
    assert_true(np_pdbset_zero_aware(t[0].za) && !np_pdbset_zero_aware(t[0].set));
}

static void tables_free(tables *t)
{
    np_pdbset_close(t->set);
    np_pdbset_close(t->za);
    t->set = t->za = NULL;
    remove_dir(t->dir);
}

/* ---- shared state, built once -------------------------------------------- */

static np_geom g3, g4;
/* 8:4-4 written with the automatic encoding (4-bit), forced 8-bit, forced 4-bit */
static tables t8[3];
#define t8_auto t8[0]
#define t8_bit8 t8[1]
#define t8_bit4 t8[2]
/* 15:6-6-3, automatic (4-bit) and 8-bit */
static tables t15[2];
#define t15_auto t15[0]
#define t15_bit8 t15[1]

/* The fast group: the 8-puzzle's BFS and its 8:4-4 tables. */
static int setup_fast(void **state)
{
    (void)state;
    assert_true(np_geom_init(&g3, 3, 3, NP_GOAL_BLANK_FIRST) == NP_OK);
    double t0 = wall_now();
    p8_bfs();
    double t1 = wall_now();
    static const int enc8[3] = {NP_PDB_ENC_AUTO, NP_PDB_ENC_8BIT, NP_PDB_ENC_4BIT};
    tables_build(t8, enc8, 3, &g3, "8:4-4", true);
    print_message("[ setup    ] 8-puzzle BFS %.2f s; 8:4-4 built and written in %.2f s; %s build, "
                  "%d OpenMP threads\n",
                  t1 - t0, t8[2].build_seconds, UNDER_SANITIZER ? "sanitizer" : "plain",
                  omp_get_max_threads());
    return 0;
}

/* The slow group: real 15-puzzle tables (15:6-6-3). */
static int setup_slow(void **state)
{
    (void)state;
    assert_true(np_geom_init(&g4, 4, 4, NP_GOAL_BLANK_FIRST) == NP_OK);
    static const int enc15[2] = {NP_PDB_ENC_AUTO, NP_PDB_ENC_8BIT};
    /* the zero-aware tables for Korf's 100, in the release build only */
    tables_build(t15, enc15, 2, &g4, "15:6-6-3", !UNDER_SANITIZER);
    print_message(
        "[ setup    ] 15:6-6-3 built and written in %.2f s; %s build, %d OpenMP threads\n",
        t15[1].build_seconds, UNDER_SANITIZER ? "sanitizer" : "plain", omp_get_max_threads());
    return 0;
}

static int teardown_fast(void **state)
{
    (void)state;
    for (int k = 0; k < 3; k++)
        tables_free(&t8[k]);
    oracle_free(&p8);
    return 0;
}

static int teardown_slow(void **state)
{
    (void)state;
    for (int k = 0; k < 2; k++)
        tables_free(&t15[k]);
    return 0;
}

/* ---- 8-puzzle: exact distances ------------------------------------------- */

/* Solve one 3x3 board with the PDB heuristic and check it against the oracle. */
/* The duplicate pruning solve8_checked asks for. */
static np_prune p8_prune = NP_PRUNE_PARENT;
/* Whether solve8_checked adds the dual lookups. */
static bool p8_dual = false;

static void solve8_checked(const uint8_t *tiles, const np_pdbset *set, bool no_reflect,
                           np_result *res)
{
    int want = p8.dist[perm_rank(tiles, P8_CELLS)];
    np_board b = make_board(tiles, 3, 3);
    np_search_opts o = {.heuristic = NP_H_PDB,
                        .pdbs = set,
                        .no_reflect = no_reflect,
                        .threads = 1,
                        .prune = p8_prune,
                        .dual = p8_dual};
    int rc = np_ida_solve(res, &b, &g3, &o);
    assert_true(rc == NP_OK);
    assert_int_equal(res->status, NP_STATUS_SOLVED);
    if (res->length != want || !replays_to_goal(tiles, 3, 3, 0, res->moves, want)) {
        char text[64];
        np_board_format(text, sizeof text, &b);
        fail_msg("8-puzzle %s (reflect %s, %s pruning, dual %s): length %d moves %s, BFS "
                 "distance %d",
                 text, no_reflect ? "off" : "on", p8_prune == NP_PRUNE_FSM ? "machine" : "parent",
                 p8_dual ? "on" : "off", res->length, res->moves, want);
    }
    assert_true(res->h0 <= want);
}

/* solve8_checked on every `stride`-th sampled board (perm ranks): the nodes
 * generated. */
static uint64_t solve8_sample_with(const np_pdbset *set, const uint32_t *sample, int nsample,
                                   bool no_reflect, int stride)
{
    uint64_t generated = 0;
    for (int i = 0; i < nsample; i += stride) {
        uint8_t tiles[9];
        perm_unrank(sample[i], tiles, P8_CELLS);
        np_result res;
        solve8_checked(tiles, set, no_reflect, &res);
        generated += res.generated;
    }
    return generated;
}

static uint64_t solve8_sample(const uint32_t *sample, int nsample, bool no_reflect, int stride)
{
    return solve8_sample_with(t8_auto.set, sample, nsample, no_reflect, stride);
}

static void test_p8_hardest(void **state)
{
    (void)state;
    static const uint8_t hardest[2][9] = {{8, 0, 6, 5, 4, 7, 2, 3, 1}, {8, 7, 6, 0, 4, 1, 2, 5, 3}};
    for (int i = 0; i < 2; i++) {
        assert_int_equal(p8.dist[perm_rank(hardest[i], P8_CELLS)], 31);
        for (int nr = 0; nr < 2; nr++) {
            np_result res;
            solve8_checked(hardest[i], t8_auto.set, nr, &res);
            assert_int_equal(res.length, 31);
        }
    }
}

static void test_p8_sampled_boards(void **state)
{
    (void)state;
    /* Stratified sample: up to PER_DIST boards of every distance 0..31 (all of
     * them where there are fewer), then uniform random boards on top. */
    enum { PER_DIST = 80, EXTRA = 400 };
    uint32_t count[32] = {0};
    for (uint32_t r = 0; r < P8_PERMS; r++)
        if (p8.dist[r] >= 0)
            count[p8.dist[r]]++;
    assert_int_equal(count[31], 2);
    uint32_t start[33] = {0};
    for (int d = 0; d < 32; d++)
        start[d + 1] = start[d] + count[d];
    assert_int_equal(start[32], P8_REACHABLE);
    uint32_t *bydist = malloc(P8_REACHABLE * sizeof *bydist);
    uint32_t *sample = malloc((32 * PER_DIST + EXTRA) * sizeof *sample);
    assert_non_null(bydist);
    assert_non_null(sample);
    uint32_t fill[32];
    memcpy(fill, start, sizeof fill);
    for (uint32_t r = 0; r < P8_PERMS; r++)
        if (p8.dist[r] >= 0)
            bydist[fill[p8.dist[r]]++] = r;
    int nsample = 0;
    for (int d = 0; d < 32; d++) {
        uint32_t *a = bydist + start[d];
        uint32_t take = count[d] < PER_DIST ? count[d] : PER_DIST;
        for (uint32_t i = 0; i < take; i++) { /* partial Fisher-Yates */
            uint32_t j = i + prng_below(count[d] - i);
            uint32_t x = a[i];
            a[i] = a[j];
            a[j] = x;
            sample[nsample++] = a[i];
        }
    }
    for (int i = 0; i < EXTRA; i++)
        sample[nsample++] = bydist[prng_below(P8_REACHABLE)];
    assert_true(nsample >= 2000);

    uint64_t gen[2] = {0, 0};
    int covered = 0;
    for (int d = 0; d < 32; d++)
        covered += count[d] > 0;
    for (int nr = 0; nr < 2; nr++)
        for (int i = 0; i < nsample; i++) {
            uint8_t tiles[9];
            perm_unrank(sample[i], tiles, P8_CELLS);
            np_result res;
            solve8_checked(tiles, t8_auto.set, nr, &res);
            gen[nr] += res.generated;
            /* The same search over 4-bit and 8-bit files: same heuristic, so the
             * same tree, node for node. */
            if (i % 8 == 0) {
                np_result r8, r4;
                solve8_checked(tiles, t8_bit8.set, nr, &r8);
                solve8_checked(tiles, t8_bit4.set, nr, &r4);
                assert_int_equal(r8.generated, res.generated);
                assert_int_equal(r4.generated, res.generated);
                assert_string_equal(r8.moves, res.moves);
                assert_string_equal(r4.moves, res.moves);
            }
        }
    print_message("[ 8-puzzle ] %d boards over %d distances solved exactly, reflection on: %llu "
                  "nodes generated, off: %llu\n",
                  nsample, covered, (unsigned long long)gen[0], (unsigned long long)gen[1]);
    /* The reflected lookup is a max of two admissible sums: never more nodes. */
    assert_true(gen[0] <= gen[1]);
    /* The PDBs (both lookups) with the duplicate-pruning machine: still exact. */
    uint64_t fsm[2];
    p8_prune = NP_PRUNE_FSM;
    for (int nr = 0; nr < 2; nr++)
        fsm[nr] = solve8_sample(sample, nsample, nr, 1);
    p8_prune = NP_PRUNE_PARENT;
    print_message("[ 8-puzzle ] the same boards with the pruning machine, exactly: %llu nodes "
                  "(reflection on), %llu (off)\n",
                  (unsigned long long)fsm[0], (unsigned long long)fsm[1]);
    assert_true(fsm[0] < gen[0] && fsm[1] < gen[1]);
    /* The dual lookups with pathmax, with either pruning: still exact, and
     * fewer nodes than the same search without them (over the same boards:
     * all of them; every 3rd under the sanitizers, about 12 times slower). */
    const int every = UNDER_SANITIZER ? 3 : 1;
    uint64_t dual[2][2], base[2][2] = {{gen[0], gen[1]}, {fsm[0], fsm[1]}};
    if (every > 1) {
        for (int pr = 0; pr < 2; pr++) {
            p8_prune = pr ? NP_PRUNE_FSM : NP_PRUNE_PARENT;
            for (int nr = 0; nr < 2; nr++)
                base[pr][nr] = solve8_sample(sample, nsample, nr, every);
        }
    }
    p8_dual = true;
    for (int pr = 0; pr < 2; pr++) {
        p8_prune = pr ? NP_PRUNE_FSM : NP_PRUNE_PARENT;
        for (int nr = 0; nr < 2; nr++)
            dual[pr][nr] = solve8_sample(sample, nsample, nr, every);
    }
    p8_dual = false;
    p8_prune = NP_PRUNE_PARENT;
    print_message("[ 8-puzzle ] the same boards with the dual lookups and pathmax, exactly: "
                  "%llu nodes (parent pruning, reflection on), %llu (off); machine: %llu, %llu\n",
                  (unsigned long long)dual[0][0], (unsigned long long)dual[0][1],
                  (unsigned long long)dual[1][0], (unsigned long long)dual[1][1]);
    for (int pr = 0; pr < 2; pr++)
        assert_true(dual[pr][0] < base[pr][0] && dual[pr][1] < base[pr][1]);
    /* The zero-aware tables, with either pruning, with and without the
     * reflected and the dual lookups: exact, and fewer nodes than the plain
     * tables in the same search. */
    uint64_t za[2][2][2];
    for (int du = 0; du < 2; du++) {
        p8_dual = du;
        for (int pr = 0; pr < 2; pr++) {
            p8_prune = pr ? NP_PRUNE_FSM : NP_PRUNE_PARENT;
            for (int nr = 0; nr < 2; nr++) {
                za[du][pr][nr] = solve8_sample_with(t8_auto.za, sample, nsample, nr, every);
                const uint64_t plain = du ? dual[pr][nr] : base[pr][nr];
                if (za[du][pr][nr] >= plain)
                    fail_msg("zero-aware tables (dual %d, %s pruning, reflect %s): %llu nodes, "
                             "plain %llu",
                             du, pr ? "machine" : "parent", nr ? "off" : "on",
                             (unsigned long long)za[du][pr][nr], (unsigned long long)plain);
            }
        }
    }
    p8_dual = false;
    p8_prune = NP_PRUNE_PARENT;
    print_message("[ 8-puzzle ] zero-aware tables, exactly: %llu nodes (parent pruning, reflection "
                  "on), %llu (machine); with the dual lookups %llu, %llu\n",
                  (unsigned long long)za[0][0][0], (unsigned long long)za[0][1][0],
                  (unsigned long long)za[1][0][0], (unsigned long long)za[1][1][0]);
    /* Split over 2 and 3 threads, with either lookup and either pruning: the
     * serial search's moves and counts. The first moves are searched apart
     * from the kernel (the pieces' list): their pruning and next bound must be
     * the kernel's, the reflected lookup included. */
    int split = 0;
    for (int i = 0; i < nsample; i += UNDER_SANITIZER ? 11 : 3) /* about 12 times slower there */
        /* every variant (v & 4: dual, v & 8: zero-aware); under the sanitizers
         * the plain ones on every other board, the dual and zero-aware ones
         * on every fourth, in turn */
        for (int v = UNDER_SANITIZER && i % 4 == 2 ? 8 : 0; v < (!UNDER_SANITIZER ? 16
                                                                     : i % 2      ? 4
                                                                     : i % 4 == 0 ? 8
                                                                                  : 16);
             v++) {
            uint8_t tiles[9];
            perm_unrank(sample[i], tiles, P8_CELLS);
            np_board b = make_board(tiles, 3, 3);
            np_search_opts o = {.heuristic = NP_H_PDB,
                                .pdbs = v & 8 ? t8_auto.za : t8_auto.set,
                                .no_reflect = v & 1,
                                .prune = v & 2 ? NP_PRUNE_FSM : NP_PRUNE_PARENT,
                                .dual = v & 4,
                                .threads = 1};
            np_result r1, rn;
            assert_true(np_ida_solve(&r1, &b, &g3, &o) == NP_OK);
            o.threads = 2 + i % 2;
            assert_true(np_ida_solve(&rn, &b, &g3, &o) == NP_OK);
            if (rn.status != r1.status || strcmp(rn.moves, r1.moves) != 0 ||
                rn.generated != r1.generated || rn.expanded != r1.expanded) {
                char text[64];
                np_board_format(text, sizeof text, &b);
                fail_msg("8-puzzle %s (reflect %s, %s pruning, dual %s, zero-aware %s): 1 thread: "
                         "%llu generated, %llu expanded, %s; %d threads: %llu, %llu, %s",
                         text, v & 1 ? "off" : "on", v & 2 ? "machine" : "parent",
                         v & 4 ? "on" : "off", v & 8 ? "yes" : "no",
                         (unsigned long long)r1.generated, (unsigned long long)r1.expanded,
                         r1.moves, o.threads, (unsigned long long)rn.generated,
                         (unsigned long long)rn.expanded, rn.moves);
            }
            split++;
        }
    print_message("[ 8-puzzle ] %d searches split over 2 or 3 threads: the serial moves and "
                  "counts\n",
                  split);
    free(bydist);
    free(sample);
}

static void test_p8_all_boards_bounds(void **state)
{
    (void)state;
    uint32_t boards = 0, above_md = 0, reflect_helps = 0, dual_helps = 0, dual_md = 0;
    uint32_t regions_help = 0, za_helps = 0, za_dual_helps = 0;
    uint64_t sum_h = 0, sum_d = 0, sum_hd = 0, sum_hz = 0;
    /* The same tables without those of the other goal region (8:4-4's first
     * pattern walls cell 0 in): the dual lookup counts Manhattan distances
     * there instead, and says so. */
    np_pdbset *no_regions = NULL;
    np_partition part;
    char err[512];
    assert_int_equal(np_partition_resolve(&part, "8:4-4", 3, 3, true, err, sizeof err), NP_OK);
    assert_int_equal(np_pdbset_open(&no_regions, &g3, &part, t8_auto.dir, 0, err, sizeof err),
                     NP_OK);
    assert_int_equal(np_pdbset_dual_missing(no_regions, NULL), 0);
    {
        /* A directory with the standard tables only (links to them), opened
         * for the dual lookups: every dual table is missing, which is no
         * error, and err is left as it was on success (error.h). */
        char dir[] = "/tmp/test_pdb_search_dualXXXXXX", from[600], to[600], name[256];
        assert_non_null(mkdtemp(dir));
        for (int p = 0; p < part.npatterns; p++) {
            np_pdb_filename(name, sizeof name, &g3, part.patterns[p].tiles,
                            part.patterns[p].ntiles);
            snprintf(from, sizeof from, "%s/%s", t8_auto.dir, name);
            snprintf(to, sizeof to, "%s/%s", dir, name);
            assert_int_equal(symlink(from, to), 0);
        }
        np_pdbset *bare = NULL;
        snprintf(err, sizeof err, "SENTINEL");
        assert_int_equal(np_pdbset_open(&bare, &g3, &part, dir, NP_PDBSET_DUAL, err, sizeof err),
                         NP_OK);
        assert_string_equal(err, "SENTINEL");
        assert_true(np_pdbset_dual_missing(bare, NULL) > 0);
        np_pdbset_close(bare);
        for (int p = 0; p < part.npatterns; p++) {
            np_pdb_filename(name, sizeof name, &g3, part.patterns[p].tiles,
                            part.patterns[p].ntiles);
            snprintf(to, sizeof to, "%s/%s", dir, name);
            unlink(to);
        }
        snprintf(to, sizeof to, "%s/.npuzzle-verified", dir); /* the record, if one was written */
        unlink(to);
        assert_int_equal(rmdir(dir), 0);
    }
    for (uint32_t r = 0; r < P8_PERMS; r++) {
        int d = p8.dist[r];
        if (d < 0)
            continue;
        boards++;
        uint8_t tiles[9], mir[9];
        perm_unrank(r, tiles, P8_CELLS);
        own_mirror(mir, tiles, 3);
        np_board b = make_board(tiles, 3, 3), m = make_board(mir, 3, 3);
        int md = np_h_manhattan(&b, &g3);
        int hr = np_h_pdb(t8_auto.set, &b, false);
        int hn = np_h_pdb(t8_auto.set, &b, true);
        int plain = np_h_pdb_plain(t8_auto.set, &b);
        int plain_m = np_h_pdb_plain(t8_auto.set, &m);
        if (!(md <= hn && hn <= hr && hr <= d) || hn != plain ||
            hr != (plain > plain_m ? plain : plain_m)) {
            char text[64];
            np_board_format(text, sizeof text, &b);
            fail_msg("8-puzzle %s: BFS %d md %d pdb %d pdb-no-reflect %d plain %d plain(mirror) %d",
                     text, d, md, hr, hn, plain, plain_m);
        }
        /* The zero-aware tables: between the plain sums and the distance,
         * with or without the reflected lookup. */
        int hz = np_h_pdb(t8_auto.za, &b, false), hzn = np_h_pdb(t8_auto.za, &b, true);
        if (hz < hr || hzn < hn || hzn > hz || hz > d) {
            char text[64];
            np_board_format(text, sizeof text, &b);
            fail_msg("8-puzzle %s: BFS %d, zero-aware %d (no reflection %d), plain %d (%d)", text,
                     d, hz, hzn, hr, hn);
        }
        za_helps += hz > hr;
        sum_hz += (uint64_t)hz;
        /* 4-bit and 8-bit files give the same values. */
        assert_int_equal(np_h_pdb(t8_bit8.set, &b, false), hr);
        assert_int_equal(np_h_pdb(t8_bit4.set, &b, false), hr);
        assert_int_equal(np_h_pdb_plain(t8_bit8.set, &b), plain);
        assert_int_equal(np_h_pdb_plain(t8_bit4.set, &b), plain);
        /* The dual lookup, alone and maxed with the regular ones: admissible.
         * With the blank home it looks every pattern up; the inverse
         * permutation is then a board at the same distance. */
        int hd = np_h_pdb_dual(t8_auto.set, &b, false);
        int hdn = np_h_pdb_dual(t8_auto.set, &b, true);
        int hd0 = np_h_pdb_dual(no_regions, &b, false);
        regions_help += hd > hd0;
        if (hd > d || hdn > hd || hd0 > hd) {
            char text[64];
            np_board_format(text, sizeof text, &b);
            fail_msg("8-puzzle %s: BFS %d, dual lookup %d (no reflection %d)", text, d, hd, hdn);
        }
        assert_int_equal(np_h_pdb_dual(t8_bit4.set, &b, false), hd);
        /* The dual lookup on the zero-aware tables (the region of the dual's
         * blank, which stands on the blank's home): between the plain
         * tables' dual lookup and the distance. */
        int hdz = np_h_pdb_dual(t8_auto.za, &b, false);
        int hdzn = np_h_pdb_dual(t8_auto.za, &b, true);
        if (hdz < hd || hdzn < hdn || hdzn > hdz || hdz > d) {
            char text[64];
            np_board_format(text, sizeof text, &b);
            fail_msg("8-puzzle %s: BFS %d, zero-aware dual lookup %d (no reflection %d), plain "
                     "tables' %d (%d)",
                     text, d, hdz, hdzn, hd, hdn);
        }
        za_dual_helps += hdz > hd;
        dual_helps += hd > hr;
        dual_md += hd > md;
        sum_hd += (uint64_t)(hd > hr ? hd : hr);
        above_md += hn > md;
        reflect_helps += hr > hn;
        sum_h += (uint64_t)hr;
        sum_d += (uint64_t)d;
    }
    assert_int_equal(boards, P8_REACHABLE);
    /* Tables that were all zeros, or a reflected lookup that never reflects,
     * would pass the bounds above: make sure both add something. */
    assert_true(above_md > 0);
    assert_true(reflect_helps > 0);
    assert_true(dual_helps > 0 && dual_md > 0 && regions_help > 0);
    assert_true(za_helps > boards / 20); /* the regions tell a lot apart on so small a board */
    assert_true(za_dual_helps > 0);
    assert_true(np_pdbset_digest(t8_auto.za) != np_pdbset_digest(t8_auto.set));
    /* checkpoints tell the two sets apart; both verify */
    assert_true(np_pdbset_digest(no_regions) != np_pdbset_digest(t8_auto.set));
    assert_int_equal(np_pdbset_verify(t8_auto.set, err, sizeof err), NP_OK);
    np_pdbset_close(no_regions);
    print_message("[ 8-puzzle ] all %u boards: md <= pdb <= pdb+reflect <= BFS; pdb > md on %u, "
                  "reflection raises %u; mean h %.3f vs mean distance %.3f\n",
                  boards, above_md, reflect_helps, (double)sum_h / boards, (double)sum_d / boards);
    print_message("[ 8-puzzle ] dual lookup <= BFS on all; above md on %u, above pdb+reflect on "
                  "%u; mean max(all four) %.3f; the other goal region's table raises it on %u\n",
                  dual_md, dual_helps, (double)sum_hd / boards, regions_help);
    print_message("[ 8-puzzle ] zero-aware tables: pdb+reflect <= h <= BFS on all; above it on "
                  "%u; mean h %.3f; their dual lookup <= BFS on all, above the plain tables' "
                  "on %u\n",
                  za_helps, (double)sum_hz / boards, za_dual_helps);
}

/* ---- 2x5 and 5x2: the dual lookups on boards that are not square --------- */

/* On a rows x cols board with the given goal, tables for `part` built here:
 * the dual lookup never exceeds the BFS distance of any board, raises the
 * plain sum on some, and IDA* with it (either pruning) solves a random sample
 * at the BFS distance. 5x2 runs with the blank-last goal, whose tiles are not
 * home on their own numbers. */
static void dual_on(int rows, int cols, int blank_last, const char *part)
{
    np_geom g;
    assert_true(np_geom_init(&g, rows, cols,
                             blank_last ? NP_GOAL_BLANK_LAST : NP_GOAL_BLANK_FIRST) == NP_OK);
    oracle o;
    oracle_build(&o, rows, cols, blank_last);
    const int n = rows * cols;
    assert_int_equal(o.reached, o.count / 2);
    tables t;
    static const int enc[1] = {NP_PDB_ENC_AUTO};
    tables_build(&t, enc, 1, &g, part, false);
    uint32_t helps = 0, checked = 0;
    /* every board; every 7th under the sanitizers (about 12 times slower) */
    for (uint32_t r = 0; r < o.count; r += UNDER_SANITIZER ? 7 : 1) {
        const int d = o.dist[r];
        if (d < 0)
            continue;
        uint8_t tiles[OR_MAX_CELLS];
        perm_unrank(r, tiles, n);
        np_board b = make_board(tiles, rows, cols);
        const int hd = np_h_pdb_dual(t.set, &b, false), hp = np_h_pdb_plain(t.set, &b);
        if (hd > d || hp > d)
            fail_msg("%dx%d %s: BFS %d, dual lookup %d, plain %d", rows, cols, board_str(tiles, n),
                     d, hd, hp);
        helps += hd > hp;
        checked++;
    }
    assert_true(helps > 0);
    const int SAMPLE = UNDER_SANITIZER ? 40 : 150;
    uint64_t nodes[2] = {0, 0};
    for (int i = 0; i < SAMPLE; i++) {
        uint32_t r;
        do
            r = prng_below(o.count);
        while (o.dist[r] < 0);
        uint8_t tiles[OR_MAX_CELLS];
        perm_unrank(r, tiles, n);
        np_board b = make_board(tiles, rows, cols);
        for (int pr = 0; pr < 2; pr++) {
            np_search_opts so = {.heuristic = NP_H_PDB,
                                 .pdbs = t.set,
                                 .dual = true,
                                 .prune = pr ? NP_PRUNE_FSM : NP_PRUNE_PARENT,
                                 .threads = 1};
            np_result res;
            assert_true(np_ida_solve(&res, &b, &g, &so) == NP_OK);
            assert_int_equal(res.status, NP_STATUS_SOLVED);
            if (res.length != o.dist[r] ||
                !replays_to_goal(tiles, rows, cols, blank_last, res.moves, res.length))
                fail_msg("%dx%d %s with the dual lookups: length %d (%s), BFS %d", rows, cols,
                         board_str(tiles, n), res.length, res.moves, o.dist[r]);
            nodes[pr] += res.generated;
        }
    }
    print_message("[ %dx%d     ] %s: dual lookup <= BFS on %u boards, above the plain sum on "
                  "%u; %d random boards solved exactly with it (%llu nodes parent, %llu machine)\n",
                  rows, cols, part, checked, helps, SAMPLE, (unsigned long long)nodes[0],
                  (unsigned long long)nodes[1]);
    tables_free(&t);
    oracle_free(&o);
}

static void test_dual_not_square(void **state)
{
    (void)state;
    dual_on(2, 5, 0, "1,2,3,4/5,6,7,8,9");
    dual_on(5, 2, 1, "1,2,3,4,5/6,7,8,9");
}

/* On boards of more than 16 cells (the 24-puzzle's case) the zero-aware
 * lookups find the blank's region through the colex rank of the pattern's
 * label set, not the set itself: 3x6 with 4-4-4-5 tables. No BFS reaches
 * 18 cells, so the plain tables' search (no region table) is the reference:
 * on random walks from the goal the zero-aware estimate is never below the
 * plain one and raises it on some boards, and IDA* with it, alone and with
 * the dual lookups, finds moves that replay to the goal at the plain
 * search's optimal length. */
static void test_zero_aware_ranked(void **state)
{
    (void)state;
    np_geom g;
    assert_true(np_geom_init(&g, 3, 6, NP_GOAL_BLANK_FIRST) == NP_OK);
    tables t;
    static const int enc[1] = {NP_PDB_ENC_AUTO};
    tables_build(&t, enc, 1, &g, "1,2,3,4/5,6,7,8/9,10,11,12/13,14,15,16,17", true);
    /* estimates on 2,000 walks (the generator reseeded: the count does not
     * move when other tests draw more), searches on the first 30 (8 under the
     * sanitizers) */
    const int boards = UNDER_SANITIZER ? 8 : 30, walks = 2000;
    int raised = 0;
    uint64_t nodes_plain = 0, nodes_za = 0;
    rng_state = 0x3c6ef372fe94f82bu;
    for (int i = 0; i < walks; i++) {
        uint8_t tiles[18];
        for (int c = 0; c < 18; c++)
            tiles[c] = (uint8_t)c;
        for (int k = 0; k < 60 + i % 40; k++)
            blank_step(tiles, 3, 6, "UDLR"[rng_next64() >> 62]);
        np_board b = make_board(tiles, 3, 6);
        const int hp = np_h_pdb(t.set, &b, false), hz = np_h_pdb(t.za, &b, false);
        if (hz < hp)
            fail_msg("3x6 %s: zero-aware %d below plain %d", board_str(tiles, 18), hz, hp);
        raised += hz > hp;
        if (i >= boards)
            continue;
        np_result plain, za;
        np_search_opts so = {.heuristic = NP_H_PDB, .pdbs = t.set, .threads = 1};
        assert_true(np_ida_solve(&plain, &b, &g, &so) == NP_OK);
        assert_int_equal(plain.status, NP_STATUS_SOLVED);
        assert_true(replays_to_goal(tiles, 3, 6, 0, plain.moves, plain.length));
        nodes_plain += plain.generated;
        for (int dual = 0; dual < 2; dual++) {
            so.pdbs = t.za;
            so.dual = dual;
            assert_true(np_ida_solve(&za, &b, &g, &so) == NP_OK);
            assert_int_equal(za.status, NP_STATUS_SOLVED);
            if (za.length != plain.length || !replays_to_goal(tiles, 3, 6, 0, za.moves, za.length))
                fail_msg("3x6 %s: zero-aware%s length %d (%s), plain tables %d",
                         board_str(tiles, 18), dual ? " + dual" : "", za.length, za.moves,
                         plain.length);
            if (!dual)
                nodes_za += za.generated;
        }
    }
    assert_true(raised > 0);
    assert_true(nodes_za <= nodes_plain); /* the estimate dominates: a subset of the nodes */
    print_message("[ 3x6     ] zero-aware 4-4-4-5 (ranked label sets): estimate >= plain on %d "
                  "boards, raised on %d; %d solved at the plain tables' lengths, also with the "
                  "dual lookups, %llu nodes against %llu\n",
                  walks, raised, boards, (unsigned long long)nodes_za,
                  (unsigned long long)nodes_plain);
    tables_free(&t);
}

/* ---- 15-puzzle: Korf's 100 ------------------------------------------------ */

typedef struct korf_inst {
    int id, opt;
    uint8_t tiles[16];
} korf_inst;

static korf_inst korf[100];
static int nkorf;

static void load_korf(void)
{
    if (nkorf == 100)
        return;
    const char *path = NPUZZLE_DATA_DIR "/korf100.txt";
    FILE *f = fopen(path, "r");
    if (f == NULL)
        fail_msg("cannot open %s", path);
    char line[512];
    nkorf = 0;
    while (fgets(line, sizeof line, f) != NULL) {
        char *p = line;
        while (*p == ' ' || *p == '\t')
            p++;
        if (*p == '#' || *p == '\n' || *p == '\0')
            continue;
        assert_true(nkorf < 100);
        korf_inst *k = &korf[nkorf];
        for (int c = 0; c < 16; c++) {
            char *end;
            long v = strtol(p, &end, 10);
            assert_true(end != p && v >= 0 && v < 16);
            k->tiles[c] = (uint8_t)v;
            p = end;
        }
        char *id = strstr(p, "id="), *opt = strstr(p, "opt=");
        assert_non_null(id);
        assert_non_null(opt);
        k->id = atoi(id + 3);
        k->opt = atoi(opt + 4);
        assert_true(own_solvable(k->tiles, 4, 4));
        nkorf++;
    }
    fclose(f);
    assert_int_equal(nkorf, 100);
}

/* All 100 instances in every build. Measured on the 2-core development
 * machine with OMP_NUM_THREADS=2 (boards in parallel, one search each): about
 * 5 s of wall time in the release build and 30 s under ASan+UBSan at -O0, so
 * the sanitizer build needs no smaller set (the whole test takes about 1 min). */
/* Korf's 100 with 15:6-6-3 + reflection and the given pruning: every length
 * is the published optimum. */
static uint64_t korf100_with_set(const np_pdbset *set, np_prune prune, bool dual);

static void korf100_with(np_prune prune, bool dual)
{
    korf100_with_set(t15_auto.set, prune, dual);
}

static uint64_t korf100_with_set(const np_pdbset *set, np_prune prune, bool dual)
{
    load_korf();
    int n = nkorf;
    np_result *res = calloc((size_t)n, sizeof *res);
    int *rcs = calloc((size_t)n, sizeof *rcs);
    assert_non_null(res);
    assert_non_null(rcs);
    np_search_opts o = {
        .heuristic = NP_H_PDB, .pdbs = set, .threads = 1, .prune = prune, .dual = dual};
    double t0 = wall_now();
    /* Boards in parallel (one search each); nothing asserts inside the region. */
#pragma omp parallel for schedule(dynamic, 1)
    for (int i = 0; i < n; i++) {
        np_board b = make_board(korf[i].tiles, 4, 4);
        rcs[i] = np_ida_solve(&res[i], &b, &g4, &o);
    }
    double wall = wall_now() - t0;
    uint64_t generated = 0;
    double search = 0;
    for (int i = 0; i < n; i++) {
        const korf_inst *k = &korf[i];
        assert_int_equal(k->id, i + 1);
        assert_true(rcs[i] == NP_OK);
        assert_int_equal(res[i].status, NP_STATUS_SOLVED);
        if (res[i].length != k->opt || !replays_to_goal(k->tiles, 4, 4, 0, res[i].moves, k->opt))
            fail_msg("Korf #%d: length %d (moves %s), opt=%d", k->id, res[i].length, res[i].moves,
                     k->opt);
        assert_true(res[i].h0 <= k->opt && (k->opt - res[i].h0) % 2 == 0);
        generated += res[i].generated;
        search += res[i].seconds;
    }
    print_message(
        "[ korf100  ] %s build: all %d instances solved at opt= with 15:6-6-3%s + reflection%s, %s "
        "pruning; "
        "%.2f s wall on %d threads (%.2f s of search), %llu nodes generated "
        "(mean %.0f)\n",
        UNDER_SANITIZER ? "sanitizer" : "plain", n, np_pdbset_zero_aware(set) ? " zero-aware" : "",
        dual ? " + dual" : "", prune == NP_PRUNE_FSM ? "machine" : "parent", wall,
        omp_get_max_threads(), search, (unsigned long long)generated, (double)generated / n);
    free(res);
    free(rcs);
    return generated;
}

static void test_korf100(void **state)
{
    (void)state;
    korf100_with(NP_PRUNE_PARENT, false);
    const uint64_t plain = korf100_with_set(t15_auto.set, NP_PRUNE_FSM, false);
    /* the zero-aware tables: optimal, and fewer nodes (release build only, as
     * the dual lookups below; both are checked on the 8-puzzle in both) */
    if (!UNDER_SANITIZER)
        assert_true(korf100_with_set(t15_auto.za, NP_PRUNE_FSM, false) < plain);
    /* The dual lookups are checked on every 8-puzzle board in both builds;
     * Korf's 100 with them (twice the time of the search above) in the
     * release build only, to keep the sanitizer suite within its time. */
    if (!UNDER_SANITIZER)
        korf100_with(NP_PRUNE_FSM, true);
}

/* ---- reflection on random 15-puzzle boards --------------------------------- */

static void random_board15(uint8_t *tiles, int i)
{
    for (int c = 0; c < 16; c++)
        tiles[c] = (uint8_t)c;
    if (i % 2 == 0) {
        /* random walk from the goal, 0..300 steps */
        int steps = (int)prng_below(301);
        for (int s = 0; s < steps; s++)
            blank_step(tiles, 4, 4, "UDLR"[prng_below(4)]);
    } else {
        /* random permutation, parity fixed by swapping two tiles */
        for (int c = 15; c > 0; c--) {
            int j = (int)prng_below((uint32_t)c + 1);
            uint8_t x = tiles[c];
            tiles[c] = tiles[j];
            tiles[j] = x;
        }
        if (!own_solvable(tiles, 4, 4)) {
            int a = tiles[0] == 0 ? 2 : 0, b = tiles[1] == 0 ? 2 : 1;
            uint8_t x = tiles[a];
            tiles[a] = tiles[b];
            tiles[b] = x;
        }
    }
    assert_true(own_solvable(tiles, 4, 4));
}

static void test_reflection_random15(void **state)
{
    (void)state;
    int raised = 0;
    for (int i = 0; i < 1000; i++) {
        uint8_t tiles[16], mir[16];
        random_board15(tiles, i);
        own_mirror(mir, tiles, 4);
        np_board b = make_board(tiles, 4, 4), m = make_board(mir, 4, 4), lib_m;
        np_board_mirror(&lib_m, &b, &g4);
        assert_memory_equal(lib_m.tiles, m.tiles, 16);
        assert_int_equal(lib_m.blank, m.blank);
        int plain = np_h_pdb_plain(t15_auto.set, &b);
        int plain_m = np_h_pdb_plain(t15_auto.set, &m);
        int refl = np_h_pdb(t15_auto.set, &b, false);
        if (refl != (plain > plain_m ? plain : plain_m) ||
            np_h_pdb_plain(t15_auto.set, &lib_m) != plain_m ||
            np_h_pdb(t15_auto.set, &b, true) != plain) {
            char text[96];
            np_board_format(text, sizeof text, &b);
            fail_msg("15-puzzle %s: pdb %d, plain %d, plain of own mirror %d, of library mirror %d",
                     text, refl, plain, plain_m, np_h_pdb_plain(t15_auto.set, &lib_m));
        }
        /* Admissibility cross-check against Manhattan distance and parity. */
        int md = np_h_manhattan(&b, &g4);
        assert_true(plain >= md && (plain - md) % 2 == 0);
        /* The mirror is an involution and keeps the value symmetric. */
        assert_int_equal(np_h_pdb(t15_auto.set, &m, false), refl);
        /* 8-bit files give the same values as the automatic (4-bit) ones. */
        assert_int_equal(np_h_pdb_plain(t15_bit8.set, &b), plain);
        assert_int_equal(np_h_pdb(t15_bit8.set, &b, false), refl);
        raised += refl > plain;
    }
    assert_true(raised > 0);
    print_message(
        "[ reflect  ] 1000 random 15-puzzle boards: reflected lookup = max(plain, plain of "
        "the independent mirror); raised the estimate on %d\n",
        raised);
}

/* ---- one board on two and three threads ---------------------------------- */

/* A board's search split over 2 and 3 threads gives the serial search's moves
 * and node counts (the pieces before the one holding the solution finish, the
 * work after it is counted apart); and the lengths are the published ones. */
static void test_parallel_single_board(void **state)
{
    (void)state;
    load_korf();
    /* Korf's instances 1..20 (a mix of easy and hard ones). */
    uint64_t gen1 = 0, extra2 = 0, extra3 = 0;
    double s1 = 0, s2 = 0, s3 = 0;
    for (int i = 0; i < 20; i++) {
        const korf_inst *k = &korf[i];
        np_board b = make_board(k->tiles, 4, 4);
        np_result r1, rn;
        np_search_opts o = {.heuristic = NP_H_PDB, .pdbs = t15_auto.set, .threads = 1};
        assert_true(np_ida_solve(&r1, &b, &g4, &o) == NP_OK);
        assert_int_equal(r1.status, NP_STATUS_SOLVED);
        if (r1.length != k->opt || !replays_to_goal(k->tiles, 4, 4, 0, r1.moves, r1.length))
            fail_msg("Korf #%d: length %d (moves %s), opt=%d", k->id, r1.length, r1.moves, k->opt);
        gen1 += r1.generated;
        s1 += r1.seconds;
        for (int threads = 2; threads <= 3; threads++) {
            o.threads = threads;
            assert_true(np_ida_solve(&rn, &b, &g4, &o) == NP_OK);
            if (rn.status != r1.status || strcmp(rn.moves, r1.moves) != 0 ||
                rn.generated != r1.generated || rn.expanded != r1.expanded || rn.h0 != r1.h0)
                fail_msg("Korf #%d: threads=1: %llu generated, %llu expanded, %s; threads=%d: "
                         "%llu, %llu, %s",
                         k->id, (unsigned long long)r1.generated, (unsigned long long)r1.expanded,
                         r1.moves, threads, (unsigned long long)rn.generated,
                         (unsigned long long)rn.expanded, rn.moves);
            *(threads == 2 ? &extra2 : &extra3) += rn.extra;
            *(threads == 2 ? &s2 : &s3) += rn.seconds;
        }
    }
    print_message("[ parallel ] Korf #1..20: the same moves and %llu nodes generated with 1, 2 "
                  "and 3 threads (%.2f, %.2f, %.2f s; %llu and %llu extra)\n",
                  (unsigned long long)gen1, s1, s2, s3, (unsigned long long)extra2,
                  (unsigned long long)extra3);
}

int main(int argc, char **argv)
{
    const struct CMUnitTest fast[] = {
        cmocka_unit_test(test_p8_hardest),           cmocka_unit_test(test_p8_sampled_boards),
        cmocka_unit_test(test_p8_all_boards_bounds), cmocka_unit_test(test_dual_not_square),
        cmocka_unit_test(test_zero_aware_ranked),
    };
    const struct CMUnitTest slow[] = {
        cmocka_unit_test(test_reflection_random15),
        cmocka_unit_test(test_parallel_single_board),
        cmocka_unit_test(test_korf100),
    };
    return NP_TEST_SUITES(argc, argv, fast, setup_fast, teardown_fast, slow, setup_slow,
                          teardown_slow);
}
