/* test_ida.c - IDA* (and the batch driver) checked against an independent breadth-first oracle.
 *
 * Ground truth never comes from the library: a plain BFS (tests/oracle.h), with its
 * own permutation ranking and its own move code, gives the exact distance of
 * every board of the small puzzles (3x3, 2x3, 3x2, 2x4), and every solution the
 * library returns is replayed by the same independent move code. For the
 * 15-puzzle the known optimal lengths of Korf's instances are the truth.
 */
#include <math.h>
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
#include "oracle.h"
#include "solve_harness.h"

/* ---- helpers ------------------------------------------------------------ */

static oracle or33, or23, or32, or24, or33_last, or23_last, or25, or52;
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
    oracle_build(&or23_last, 2, 3, 1);
    oracle_build(&or25, 2, 5, 0);
    oracle_build(&or52, 5, 2, 0);
    /* 100 per distance: every board of distances 0-7 and 31, 100 of each other. */
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
    oracle_free(&or23_last);
    oracle_free(&or25);
    oracle_free(&or52);
    free(sample33);
    return 0;
}

/* ---- the oracle itself -------------------------------------------------- */

/* The BFS agrees with the published 8-puzzle depth profile, so it can be trusted. */
/* Searches and PDB sets take the row-major geometry (board.h): a labelled
 * one is refused, not searched with boards in the other numbering. */
static void test_labelled_geometry_refused(void **state)
{
    (void)state;
    np_geom g, lg;
    assert_int_equal(np_geom_init(&g, 3, 3, NP_GOAL_BLANK_FIRST), NP_OK);
    assert_int_equal(np_geom_labelled(&g, &lg), NP_OK);
    np_board b;
    char err[256];
    assert_int_equal(np_board_parse(&b, NULL, "1 2 0 3 4 5 6 7 8", 3, 3, err, sizeof err), 1);
    static np_result res;
    np_search_opts o = {0};
    assert_true(np_ida_solve(&res, &b, &lg, &o) == NP_EINVAL);
    assert_true(np_astar_solve(&res, &b, &lg, &o) == NP_EINVAL);
    assert_int_equal(np_ida_solve(&res, &b, &g, &o), NP_OK);
    assert_int_equal(res.length, 2);
    np_partition part;
    assert_int_equal(np_partition_resolve(&part, "8:4-4", 3, 3, true, err, sizeof err), NP_OK);
    np_pdbset *set = NULL;
    assert_true(np_pdbset_open(&set, &lg, &part, "/nonexistent", 0, err, sizeof err) == NP_EINVAL);
    assert_null(set);
    assert_non_null(strstr(err, "labelled"));
    /* no directory, and a flag the header does not list: refused, not read as "(null)/..." */
    assert_true(np_pdbset_open(&set, &g, &part, NULL, 0, err, sizeof err) == NP_EINVAL);
    assert_null(set);
    assert_null(strstr(err, "null"));
    assert_true(np_pdbset_open(&set, &g, &part, "/nonexistent", 1u << 20, err, sizeof err) ==
                NP_EINVAL);
    assert_null(set);
}

static void test_oracle_profile(void **state)
{
    (void)state;
    static const uint32_t profile[32] = {1,     2,     4,     8,     16,    20,    39,    62,
                                         116,   152,   286,   396,   748,   1024,  1893,  2512,
                                         4485,  5638,  9529,  10878, 16993, 17110, 23952, 20224,
                                         24047, 15578, 14560, 6274,  3910,  760,   221,   2};
    assert_int_equal(or33.reached, 181440);
    assert_int_equal(or33.maxd, 31);
    for (int d = 0; d < 32; d++)
        assert_int_equal(or33.per_dist[d], profile[d]);
    /* the two antipodes are the published ones */
    static const uint8_t a[9] = {8, 0, 6, 5, 4, 7, 2, 3, 1}, b[9] = {8, 7, 6, 0, 4, 1, 2, 5, 3};
    assert_int_equal(or33.dist[perm_rank(a, 9)], 31);
    assert_int_equal(or33.dist[perm_rank(b, 9)], 31);
    assert_int_equal(or23.reached, 360);
    assert_int_equal(or32.reached, 360);
    assert_int_equal(or24.reached, 20160);
    assert_int_equal(or33_last.reached, 181440);
    assert_int_equal(or33_last.maxd, 31);
    assert_true(nsample33 >= 2000);
    for (int d = 0; d <= 31; d++) {
        size_t k = 0;
        for (size_t i = 0; i < nsample33; i++)
            k += or33.dist[sample33[i]] == d;
        assert_true(k >= 1);
    }
}

/* ---- heuristics and parity over every board ---------------------------- */

static void check_all_boards(const oracle *o)
{
    np_geom g;
    assert_true(np_geom_init(&g, o->rows, o->cols,
                             o->blank_last ? NP_GOAL_BLANK_LAST : NP_GOAL_BLANK_FIRST) == NP_OK);
    uint8_t p[OR_MAX_CELLS];
    for (uint32_t r = 0; r < o->count; r++) {
        perm_unrank(r, p, o->n);
        np_board b = make_board(p, o->rows, o->cols);
        bool reach = o->dist[r] >= 0;
        if (np_board_solvable(&b, &g) != reach)
            fail_msg("%dx%d board [%s]: solvable() says %d, BFS says %d", o->rows, o->cols,
                     board_str(p, o->n), !reach, reach);
        if (!reach)
            continue;
        int md = np_h_manhattan(&b, &g), lc = np_h_linear_conflict(&b, &g), d = o->dist[r];
        if (md > d || lc > d || md > lc || (lc - d) % 2 != 0 || (md - d) % 2 != 0 ||
            (d > 0 && md == 0))
            fail_msg("%dx%d board [%s]: md %d lc %d, distance %d", o->rows, o->cols,
                     board_str(p, o->n), md, lc, d);
    }
}

static void test_heuristics_and_parity_all_boards(void **state)
{
    (void)state;
    check_all_boards(&or33);
    check_all_boards(&or23);
    check_all_boards(&or32);
    check_all_boards(&or24);
    check_all_boards(&or33_last);
    check_all_boards(&or23_last);
}

/* ---- IDA* against the oracle -------------------------------------------- */

static void test_ida_3x3_sample_md(void **state)
{
    (void)state;
    run_sample(np_ida_solve, "ida", &or33, sample33, nsample33, NP_H_MD, 0);
}

static void test_ida_3x3_sample_lc(void **state)
{
    (void)state;
    run_sample(np_ida_solve, "ida", &or33, sample33, nsample33, NP_H_LC, 0);
}

static void test_ida_hardest8(void **state)
{
    (void)state;
    check_hardest8(np_ida_solve, "ida", &or33);
}

/* Every board of 2x3 and 3x2; a stratified sample of 2x4 (150 per distance,
 * every board of the rare distances; 3,544 boards): all 20,160 take too long
 * under ASan. */
static void test_ida_small_boards(void **state)
{
    (void)state;
    uint32_t *ranks;
    size_t n = stratified_sample(&or24, 150, &ranks);
    assert_true(n >= 3000);
    for (int h = NP_H_MD; h <= NP_H_LC; h++) {
        run_all(np_ida_solve, "ida", &or23, (np_hkind)h, 0);
        run_all(np_ida_solve, "ida", &or32, (np_hkind)h, 0);
        run_sample(np_ida_solve, "ida", &or24, ranks, n, (np_hkind)h, 0);
    }
    free(ranks);
}

static void test_ida_blank_last(void **state)
{
    (void)state;
    uint32_t *ranks;
    size_t n = stratified_sample(&or33_last, 12, &ranks);
    assert_true(n >= 300);
    for (int h = NP_H_MD; h <= NP_H_LC; h++) {
        run_sample(np_ida_solve, "ida", &or33_last, ranks, n, (np_hkind)h, 0);
        run_all(np_ida_solve, "ida", &or23_last, (np_hkind)h, 0);
    }
    free(ranks);
}

static void test_ida_weighted(void **state)
{
    (void)state;
    for (int h = NP_H_MD; h <= NP_H_LC; h++) {
        run_sample(np_ida_solve, "ida", &or33, sample33, nsample33, (np_hkind)h, 2.0);
        run_sample(np_ida_solve, "ida", &or33, sample33, nsample33, (np_hkind)h, 1.5);
    }
}

/* The weight is taken to a thousandth, rounded down (ida.h): 1.0009
 * searches as the optimal search, node for node, so that the bound "at most
 * weight times the optimal length" holds for the weight given. Rounded to the
 * nearest it would search as 1.001, whose fractional f bounds split the
 * iterations: that weight must generate other counts on some boards, or this
 * test could not tell the two roundings apart. */
static void test_ida_weight_thousandths(void **state)
{
    (void)state;
    size_t tested;
    compare_weights(np_ida_solve, &or33, sample33, nsample33, 40, 0, 1.0009, true, &tested);
    assert_true(tested >= 50);
    if (compare_weights(np_ida_solve, &or33, sample33, nsample33, 40, 0, 1.001, false, &tested) ==
        0)
        fail_msg("weight 1.001 searched as the optimal search on all %zu boards", tested);
}

/* The other parity half: answered by parity, nothing searched. */
static void check_unsolvable(const oracle *o, int stride)
{
    np_geom g;
    assert_true(np_geom_init(&g, o->rows, o->cols,
                             o->blank_last ? NP_GOAL_BLANK_LAST : NP_GOAL_BLANK_FIRST) == NP_OK);
    np_result *res = malloc(sizeof *res);
    assert_non_null(res);
    uint8_t p[OR_MAX_CELLS];
    size_t tested = 0;
    for (uint32_t r = 0; r < o->count; r += (uint32_t)stride) {
        if (o->dist[r] >= 0)
            continue;
        perm_unrank(r, p, o->n);
        np_board b = make_board(p, o->rows, o->cols);
        for (int h = NP_H_MD; h <= NP_H_LC; h++) {
            np_search_opts opts;
            memset(&opts, 0, sizeof opts);
            opts.heuristic = (np_hkind)h;
            int rc = np_ida_solve(res, &b, &g, &opts);
            if (rc != NP_OK || res->status != NP_STATUS_UNSOLVABLE || res->generated != 0 ||
                res->expanded != 0 || res->length != -1 || res->moves[0] != 0)
                fail_msg("%dx%d unsolvable board [%s]: rc %d status %d length %d generated %llu "
                         "expanded %llu",
                         o->rows, o->cols, board_str(p, o->n), rc, (int)res->status, res->length,
                         (unsigned long long)res->generated, (unsigned long long)res->expanded);
        }
        tested++;
    }
    assert_true(tested > 0);
    free(res);
}

static void test_ida_unsolvable(void **state)
{
    (void)state;
    /* every 29th 3x3 permutation (3,100 unsolvable boards), all of 2x3, every 5th of 2x4 */
    check_unsolvable(&or33, 29);
    check_unsolvable(&or23, 1);
    check_unsolvable(&or24, 5);
    check_unsolvable(&or33_last, 29);
    /* 15-puzzle: the goal with tiles 1 and 2 swapped, and Korf #1 with 14 and 13 swapped */
    np_geom g;
    assert_true(np_geom_init(&g, 4, 4, NP_GOAL_BLANK_FIRST) == NP_OK);
    static const uint8_t u1[16] = {0, 2, 1, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};
    static const uint8_t u2[16] = {13, 14, 15, 7, 11, 12, 9, 5, 6, 0, 2, 1, 4, 8, 10, 3};
    const uint8_t *us[2] = {u1, u2};
    np_result *res = malloc(sizeof *res);
    assert_non_null(res);
    for (int i = 0; i < 2; i++) {
        np_board b = make_board(us[i], 4, 4);
        double t0 = now();
        int rc = np_ida_solve(res, &b, &g, NULL);
        assert_true(rc == NP_OK);
        assert_int_equal(res->status, NP_STATUS_UNSOLVABLE);
        assert_int_equal(res->generated, 0);
        assert_int_equal(res->expanded, 0);
        assert_int_equal(res->length, -1);
        assert_true(now() - t0 < 0.5);
    }
    free(res);
}

static void test_ida_bad_arguments(void **state)
{
    (void)state;
    np_geom g;
    assert_true(np_geom_init(&g, 3, 3, NP_GOAL_BLANK_FIRST) == NP_OK);
    np_result *res = malloc(sizeof *res);
    assert_non_null(res);
    static const uint8_t dup[9] = {1, 2, 3, 4, 0, 5, 6, 7, 7};
    np_board b = make_board(dup, 3, 3);
    assert_true(np_ida_solve(res, &b, &g, NULL) == NP_EINVAL);
    static const uint8_t ok[9] = {1, 0, 2, 3, 4, 5, 6, 7, 8};
    b = make_board(ok, 3, 3);
    np_search_opts opts;
    memset(&opts, 0, sizeof opts);
    opts.weight = 0.5;
    assert_true(np_ida_solve(res, &b, &g, &opts) == NP_EINVAL);
    /* past NP_MAX_WEIGHT (1e6 overflowed f and ended in a limit), and NaN */
    const double bad_weights[] = {NP_MAX_WEIGHT * 1.01, 1e6, 1e300, NAN, -1.0};
    for (size_t i = 0; i < sizeof bad_weights / sizeof bad_weights[0]; i++) {
        opts.weight = bad_weights[i];
        assert_true(np_ida_solve(res, &b, &g, &opts) == NP_EINVAL);
        assert_true(np_astar_solve(res, &b, &g, &opts) == NP_EINVAL);
    }
    opts.weight = NP_MAX_WEIGHT;
    assert_true(np_ida_solve(res, &b, &g, &opts) == NP_OK);
    assert_int_equal(res->status, NP_STATUS_SOLVED);
    assert_int_equal(res->length, 1);
    /* a 3x3 board handed a 4x4 geometry */
    np_geom g4;
    assert_true(np_geom_init(&g4, 4, 4, NP_GOAL_BLANK_FIRST) == NP_OK);
    assert_true(np_ida_solve(res, &b, &g4, NULL) == NP_EINVAL);
    opts.weight = 0;
    assert_true(np_ida_solve(res, &b, &g, &opts) == NP_OK);
    assert_int_equal(res->length, 1);
    assert_string_equal(res->moves, "L");
    free(res);
}

/* ---- the 15-puzzle: Korf's 100 ------------------------------------------- */

typedef struct korf_instance {
    int id, opt;
    uint8_t tiles[16];
} korf_instance;

static korf_instance korf[101];

/* Reads data/korf100.txt (16 tiles, then `# id=N opt=M`).
 * Parsed here, independently of np_board_parse. */
static void load_korf100(void)
{
    static int loaded;
    if (loaded)
        return;
    const char *paths[1] = {NPUZZLE_DATA_DIR "/korf100.txt"};
    for (int which = 0; which < 1 && !loaded; which++) {
        FILE *f = fopen(paths[which], "r");
        if (!f)
            continue;
        char line[512];
        int n = 0;
        while (fgets(line, sizeof line, f)) {
            char *hash = strchr(line, '#');
            char *comment = hash ? hash + 1 : NULL;
            if (hash)
                *hash = 0;
            long v[18];
            int k = 0;
            char *s = line, *end;
            while (k < 18) {
                while (*s == ' ' || *s == '\t' || *s == ',' || *s == '\n' || *s == '\r')
                    s++;
                if (!*s)
                    break;
                v[k] = strtol(s, &end, 10);
                if (end == s)
                    break;
                k++;
                s = end;
            }
            korf_instance ki;
            memset(&ki, 0, sizeof ki);
            const long *t;
            if (k == 16 && comment) {
                char *idp = strstr(comment, "id="), *optp = strstr(comment, "opt=");
                if (!idp || !optp)
                    continue;
                ki.id = atoi(idp + 3);
                ki.opt = atoi(optp + 4);
                t = v;
            } else {
                continue;
            }
            if (ki.id < 1 || ki.id > 100)
                continue;
            for (int c = 0; c < 16; c++)
                ki.tiles[c] = (uint8_t)t[c];
            korf[ki.id] = ki;
            n++;
        }
        fclose(f);
        if (n == 100)
            loaded = 1;
        else
            print_message("%s: %d instances (want 100)\n", paths[which], n);
    }
    if (!loaded)
        fail_msg("cannot read Korf's 100 instances from %s", paths[0]);
}

/* The instances whose published IDA*-Manhattan node count (Korf 1985, set
 * korf100 column md1985 of data/published-nodes.txt) is below
 * 20 million, taken with
 *   awk '$1=="korf100" && $4 < 20000000 {print $2}' published-nodes.txt
 * 37 instances, 273,000,996 published nodes in all. This selects the inputs;
 * the answers (opt=) come from the data file. */
static const struct {
    int id;
    uint64_t md1985;
} easy_korf[] = {
    {2, 15300442},  {5, 11020325},  {9, 1650696},   {12, 546344},   {13, 11861705}, {16, 17984051},
    {19, 1280495},  {20, 17954870}, {23, 15971319}, {28, 5934442},  {30, 2196593},  {31, 2351811},
    {39, 19355806}, {42, 877823},   {45, 6158733},  {47, 1411294},  {48, 1905023},  {55, 927212},
    {57, 8841527},  {58, 12955404}, {61, 7096850},  {65, 18997681}, {71, 8885972},  {73, 3222276},
    {74, 1897728},  {77, 18918269}, {78, 10907150}, {79, 540860},   {81, 9982569},  {85, 2725456},
    {86, 2304426},  {90, 7171137},  {93, 1599909},  {94, 1337340},  {95, 7115967},  {96, 12808564},
    {97, 1002927},
};
#define N_EASY (sizeof easy_korf / sizeof easy_korf[0])

static void check_korf_solution(const korf_instance *ki, const np_result *res, const char *h)
{
    if (res->status != NP_STATUS_SOLVED || res->length != ki->opt)
        fail_msg("Korf #%d with %s: status %d length %d, opt %d", ki->id, h, (int)res->status,
                 res->length, ki->opt);
    int at_goal = 0;
    int k = replay(ki->tiles, 4, 4, 0, res->moves, &at_goal);
    if (k != ki->opt || !at_goal)
        fail_msg("Korf #%d with %s: moves \"%s\" do not replay to the goal in %d moves", ki->id, h,
                 res->moves, ki->opt);
}

/* The md1985 count of Korf's instance `id` in data/published-nodes.txt (the
 * project's copy of the paper's table, with its source); 0 if absent. */
static uint64_t published_md1985(int id)
{
    FILE *f = fopen(NPUZZLE_DATA_DIR "/published-nodes.txt", "r");
    assert_non_null(f);
    char line[256], set[32];
    int pid, opt;
    unsigned long long n;
    uint64_t found = 0;
    while (!found && fgets(line, sizeof line, f))
        if (sscanf(line, "%31s %d %d %llu", set, &pid, &opt, &n) == 4 && !strcmp(set, "korf100") &&
            pid == id)
            found = n;
    fclose(f);
    return found;
}

static void test_ida_korf100_easy(void **state)
{
    (void)state;
    load_korf100();
    assert_int_equal(N_EASY, 37);
    /* the table above is the data file's, not a drifted copy */
    for (size_t i = 0; i < N_EASY; i++)
        if (published_md1985(easy_korf[i].id) != easy_korf[i].md1985)
            fail_msg("Korf #%d: md1985 %llu here, %llu in data/published-nodes.txt",
                     easy_korf[i].id, (unsigned long long)easy_korf[i].md1985,
                     (unsigned long long)published_md1985(easy_korf[i].id));
    np_geom g;
    assert_true(np_geom_init(&g, 4, 4, NP_GOAL_BLANK_FIRST) == NP_OK);
    np_result *md = malloc(sizeof *md), *lc = malloc(sizeof *lc);
    assert_non_null(md);
    assert_non_null(lc);
    uint64_t tot_md = 0, tot_lc = 0, tot_pub = 0;
    double sec_md = 0, sec_lc = 0;
    int exact = 0;
    print_message("  id opt   md generated   Korf 1985   diff   lc generated\n");
    /* every third under the sanitizers (all 37 took 29 s there); all in release builds */
    const size_t step = UNDER_SANITIZER ? 3 : 1;
    size_t ran = 0;
    for (size_t i = 0; i < N_EASY; i += step, ran++) {
        const korf_instance *ki = &korf[easy_korf[i].id];
        assert_int_equal(ki->id, easy_korf[i].id);
        np_board b = make_board(ki->tiles, 4, 4);
        np_search_opts opts;
        memset(&opts, 0, sizeof opts);
        opts.heuristic = NP_H_MD;
        assert_true(np_ida_solve(md, &b, &g, &opts) == NP_OK);
        check_korf_solution(ki, md, "md");
        opts.heuristic = NP_H_LC;
        assert_true(np_ida_solve(lc, &b, &g, &opts) == NP_OK);
        check_korf_solution(ki, lc, "lc");
        long long diff = (long long)md->generated - (long long)easy_korf[i].md1985;
        exact += diff >= -1 && diff <= 1;
        /* Korf's IDA* with Manhattan distance and parent pruning: the same
         * tree, so his count to within the one node of counting conventions
         * (his root, or the goal's last child) */
        if (diff < -1 || diff > 1)
            fail_msg("Korf #%d with md: %llu nodes generated, Korf 1985 counts %llu", ki->id,
                     (unsigned long long)md->generated, (unsigned long long)easy_korf[i].md1985);
        print_message("%4d %3d %14llu %11llu %6lld %14llu\n", ki->id, ki->opt,
                      (unsigned long long)md->generated, (unsigned long long)easy_korf[i].md1985,
                      diff, (unsigned long long)lc->generated);
        /* lc dominates md: on these fixed instances it never needs more nodes. */
        if (lc->generated > md->generated)
            fail_msg("Korf #%d: lc generated %llu > md %llu", ki->id,
                     (unsigned long long)lc->generated, (unsigned long long)md->generated);
        tot_md += md->generated;
        tot_lc += lc->generated;
        tot_pub += easy_korf[i].md1985;
        sec_md += md->seconds;
        sec_lc += lc->seconds;
    }
    print_message("total    %14llu %11llu  (%d of %d within one node)  lc %llu\n",
                  (unsigned long long)tot_md, (unsigned long long)tot_pub, exact, (int)ran,
                  (unsigned long long)tot_lc);
    print_message("md %.2f s (%.1f M nodes/s), lc %.2f s\n", sec_md,
                  sec_md > 0 ? tot_md / sec_md / 1e6 : 0.0, sec_lc);
    free(md);
    free(lc);
}

/* np_solution_check, the solvers' last word on a path: a path that the
 * oracle's own replay (oracle.h) takes to the goal passes; one that ends
 * elsewhere, leaves the board or has a letter that is no move fails; the
 * start board is never changed. */
static void test_solution_check(void **state)
{
    (void)state;
    np_geom g;
    assert_true(np_geom_init(&g, 3, 3, NP_GOAL_BLANK_FIRST) == NP_OK);
    /* the goal after the blank moved R, D: "UL" takes it back */
    const uint8_t start[9] = {1, 4, 2, 3, 0, 5, 6, 7, 8};
    const uint8_t *p = start;
    np_board b = make_board(p, 3, 3);
    const np_board before = b;
    static const struct {
        const char *moves;
        bool ok;
    } cases[] = {
        {"", false},    {"U", false},  {"UL", true},  {"ULRL", true}, {"ULDU", true},
        {"ULU", false}, {"UD", false}, {"UX", false}, {"ULL", false}, {"LU", false},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int at_goal = 0;
        int legal = replay(start, 3, 3, 0, cases[i].moves, &at_goal);
        const bool by_oracle = legal == (int)strlen(cases[i].moves) && at_goal;
        if (by_oracle != cases[i].ok)
            fail_msg("the oracle replays '%s' otherwise than the case says", cases[i].moves);
        int rc = np_solution_check(&b, &g, cases[i].moves);
        if ((rc == NP_OK) != cases[i].ok)
            fail_msg("np_solution_check('%s') = %d, want %s", cases[i].moves, rc,
                     cases[i].ok ? "NP_OK" : "NP_EINVAL");
        if (!cases[i].ok)
            assert_int_equal(rc, NP_EINVAL);
        assert_memory_equal(&b, &before, sizeof b);
    }
}

/* ---- limits ---------------------------------------------------------------- */

static void test_ida_node_limit(void **state)
{
    (void)state;
    load_korf100();
    np_geom g;
    assert_true(np_geom_init(&g, 4, 4, NP_GOAL_BLANK_FIRST) == NP_OK);
    np_result *res = malloc(sizeof *res);
    assert_non_null(res);
    np_board b = make_board(korf[1].tiles, 4, 4); /* 276 million nodes with md */
    for (int h = NP_H_MD; h <= NP_H_LC; h++) {
        np_search_opts opts;
        memset(&opts, 0, sizeof opts);
        opts.heuristic = (np_hkind)h;
        opts.max_nodes = 1000;
        assert_true(np_ida_solve(res, &b, &g, &opts) == NP_OK);
        print_message("max_nodes 1000 (%s): status %d, generated %llu, bound %d\n",
                      np_hkind_name((np_hkind)h), (int)res->status,
                      (unsigned long long)res->generated, res->bound);
        assert_int_equal(res->status, NP_STATUS_LIMIT);
        assert_int_equal(res->length, -1);
        assert_true(res->generated >= 1000);
        assert_true(res->generated <= 1000 + (1u << 18));
        assert_true(res->bound >= res->h0 && res->bound < korf[1].opt);
    }
    free(res);
}

static void assert_same_result(const np_result *a, const np_result *b, const char *what);

/* --max-nodes N solves a board only when its serial search needs at most N
 * generated nodes, whatever the threads: on the 8-puzzle, where the first
 * moves of a split search can be whole iterations, and on Korf #12. The
 * serial count comes from a run without a limit. One thread solves exactly
 * then; several count every thread's nodes, so may stop sooner, but not
 * with ten times as many allowed. */
static void test_ida_node_limit_threads(void **state)
{
    (void)state;
    load_korf100();
    np_geom g3, g4;
    assert_true(np_geom_init(&g3, 3, 3, NP_GOAL_BLANK_FIRST) == NP_OK);
    assert_true(np_geom_init(&g4, 4, 4, NP_GOAL_BLANK_FIRST) == NP_OK);
    static const uint8_t far8[9] = {1, 2, 3, 4, 5, 6, 7, 8, 0}; /* 22 moves */
    np_board boards[2] = {make_board(far8, 3, 3), make_board(korf[12].tiles, 4, 4)};
    const np_geom *geoms[2] = {&g3, &g4};
    np_result *ref = malloc(sizeof *ref), *r = malloc(sizeof *r);
    assert_non_null(ref);
    assert_non_null(r);
    for (int k = 0; k < 2; k++) {
        np_search_opts o = {.heuristic = NP_H_LC};
        assert_true(np_ida_solve(ref, &boards[k], geoms[k], &o) == NP_OK);
        assert_int_equal(ref->status, NP_STATUS_SOLVED);
        const uint64_t n = ref->generated;
        const uint64_t limits[] = {1, 2, n / 2, n - 2, n - 1, n, n + 1, 2 * n, 10 * n};
        for (size_t i = 0; i < sizeof limits / sizeof limits[0]; i++)
            for (int threads = 1; threads <= 3; threads++) {
                o.max_nodes = limits[i];
                o.threads = threads;
                assert_true(np_ida_solve(r, &boards[k], geoms[k], &o) == NP_OK);
                if (limits[i] >= n && r->status == NP_STATUS_LIMIT && threads > 1 &&
                    limits[i] < 10 * n) {
                    assert_int_equal(r->length, -1); /* the other threads' nodes counted */
                } else if (limits[i] >= n) {
                    if (r->status != NP_STATUS_SOLVED)
                        fail_msg("board %d, %d threads, max_nodes %llu >= %llu: status %d", k,
                                 threads, (unsigned long long)limits[i], (unsigned long long)n,
                                 (int)r->status);
                    assert_same_result(ref, r, "under a node limit it does not reach");
                } else if (r->status != NP_STATUS_LIMIT || r->length != -1) {
                    fail_msg("board %d, %d threads, max_nodes %llu < %llu: status %d, length %d", k,
                             threads, (unsigned long long)limits[i], (unsigned long long)n,
                             (int)r->status, r->length);
                }
            }
    }
    free(ref);
    free(r);
}

static void test_ida_timeout(void **state)
{
    (void)state;
    load_korf100();
    np_geom g;
    assert_true(np_geom_init(&g, 4, 4, NP_GOAL_BLANK_FIRST) == NP_OK);
    np_result *res = malloc(sizeof *res);
    assert_non_null(res);
    np_board b = make_board(korf[3].tiles, 4, 4); /* over a billion nodes with md */
    np_search_opts opts;
    memset(&opts, 0, sizeof opts);
    opts.heuristic = NP_H_MD;
    opts.timeout = 0.2;
    double t0 = now();
    assert_true(np_ida_solve(res, &b, &g, &opts) == NP_OK);
    double dt = now() - t0;
    print_message("timeout 0.2 s on Korf #3: status %d after %.3f s (%llu generated)\n",
                  (int)res->status, dt, (unsigned long long)res->generated);
    assert_int_equal(res->status, NP_STATUS_LIMIT);
    assert_int_equal(res->length, -1);
    assert_true(dt < 2.0);
    assert_true(dt >= 0.15);
    free(res);
}

/* A cancel set before the call, or a deadline already passed, stops even a
 * search too small to reach a check in the kernel (every CHECK_EVERY nodes):
 * the same status at one thread and at two, and A*'s. */
static void test_ida_cancel_small(void **state)
{
    (void)state;
    np_geom g;
    assert_true(np_geom_init(&g, 3, 3, NP_GOAL_BLANK_FIRST) == NP_OK);
    np_result *res = malloc(sizeof *res);
    assert_non_null(res);
    static const uint8_t t[9] = {8, 6, 7, 2, 5, 4, 3, 0, 1}; /* 27 moves: 11,935 nodes */
    np_board b = make_board(t, 3, 3);
    volatile int cancel = 1;
    for (int threads = 1; threads <= 2; threads++) {
        for (int how = 0; how < 2; how++) {
            np_search_opts opts;
            memset(&opts, 0, sizeof opts);
            opts.heuristic = NP_H_MD;
            opts.threads = threads;
            if (how == 0)
                opts.cancel = &cancel;
            else
                opts.timeout = 1e-9;
            assert_true(np_ida_solve(res, &b, &g, &opts) == NP_OK);
            assert_int_equal(res->status, NP_STATUS_LIMIT);
            assert_int_equal(res->length, -1);
            assert_true(np_astar_solve(res, &b, &g, &opts) == NP_OK);
            assert_int_equal(res->status, NP_STATUS_LIMIT);
        }
    }
    free(res);
}

/* ---- one board searched by several threads ---------------------------------- */

/* opts.threads = 2 splits one board's search: the answers stay optimal (node
 * counts may differ from the serial search and are not compared). */
static void test_ida_parallel_one_board(void **state)
{
    (void)state;
    np_geom g3;
    assert_true(np_geom_init(&g3, 3, 3, NP_GOAL_BLANK_FIRST) == NP_OK);
    uint8_t p[9];
    for (int h = NP_H_MD; h <= NP_H_LC; h++) {
        np_search_opts opts;
        memset(&opts, 0, sizeof opts);
        opts.heuristic = (np_hkind)h;
        opts.threads = 2;
        /* every 50th board of the sample (the distance bands 0..30) and the last
         * ones (31 moves): each IDA* iteration is a parallel region, which costs
         * a lot when the machine is oversubscribed, so few boards */
        for (size_t i = 0; i < nsample33; i += (i + 50 < nsample33 ? 50 : 1)) {
            perm_unrank(sample33[i], p, 9);
            opts.weight = 0;
            check_solve(np_ida_solve, "ida-2threads", &or33, &g3, p, or33.dist[sample33[i]], &opts);
            if (i % 200 == 0) {
                opts.weight = 2.0;
                check_solve(np_ida_solve, "ida-2threads", &or33, &g3, p, or33.dist[sample33[i]],
                            &opts);
            }
        }
    }
    /* a few easy instances of Korf's 100 */
    load_korf100();
    np_geom g;
    assert_true(np_geom_init(&g, 4, 4, NP_GOAL_BLANK_FIRST) == NP_OK);
    np_result *res = malloc(sizeof *res);
    assert_non_null(res);
    static const int ids[] = {12, 79, 55};
    for (size_t i = 0; i < sizeof ids / sizeof ids[0]; i++)
        for (int h = NP_H_MD; h <= NP_H_LC; h++) {
            const korf_instance *ki = &korf[ids[i]];
            np_board b = make_board(ki->tiles, 4, 4);
            np_search_opts opts;
            memset(&opts, 0, sizeof opts);
            opts.heuristic = (np_hkind)h;
            opts.threads = 2;
            assert_true(np_ida_solve(res, &b, &g, &opts) == NP_OK);
            check_korf_solution(ki, res, h == NP_H_LC ? "lc, 2 threads" : "md, 2 threads");
        }
    /* limits still stop a parallel search cleanly */
    np_board hard = make_board(korf[3].tiles, 4, 4);
    np_search_opts opts;
    memset(&opts, 0, sizeof opts);
    opts.threads = 2;
    opts.max_nodes = 100000;
    assert_true(np_ida_solve(res, &hard, &g, &opts) == NP_OK);
    print_message("2 threads, max_nodes 100000: status %d, generated %llu\n", (int)res->status,
                  (unsigned long long)res->generated);
    assert_int_equal(res->status, NP_STATUS_LIMIT);
    assert_int_equal(res->length, -1);
    assert_true(res->generated >= 100000);
    opts.max_nodes = 0;
    opts.timeout = 0.2;
    double t0 = now();
    assert_true(np_ida_solve(res, &hard, &g, &opts) == NP_OK);
    double dt = now() - t0;
    print_message("2 threads, timeout 0.2 s: status %d after %.3f s\n", (int)res->status, dt);
    assert_int_equal(res->status, NP_STATUS_LIMIT);
    assert_true(dt < 2.0);
    /* the batch driver gives a lone board all its threads */
    np_batch_opts bo;
    memset(&bo, 0, sizeof bo);
    bo.algorithm = NP_ALG_IDA;
    bo.threads = 2;
    np_board one = make_board(korf[79].tiles, 4, 4);
    opts.timeout = 0;
    opts.heuristic = NP_H_LC;
    assert_true(np_batch_solve(res, &one, 1, &g, &opts, &bo) == NP_OK);
    check_korf_solution(&korf[79], res, "lc, batch of one, 2 threads");
    free(res);
}

/* A 5x5 board `steps` random moves from the goal, never undoing the last one
 * (the test's own generator: an LCG, the move from its top two bits). */
static np_board walk5(int steps, uint64_t *seed)
{
    uint8_t t[25];
    for (int c = 0; c < 25; c++)
        t[c] = (uint8_t)c;
    int blank = 0, last = -1;
    for (int step = 0; step < steps; step++) {
        int r = blank / 5, k = blank % 5, to;
        do {
            *seed = *seed * 6364136223846793005ULL + 1442695040888963407ULL;
            int dir = (int)(*seed >> 62);
            to = dir == 0  ? (r > 0 ? blank - 5 : -1)
                : dir == 1 ? (k > 0 ? blank - 1 : -1)
                : dir == 2 ? (k < 4 ? blank + 1 : -1)
                           : (r < 4 ? blank + 5 : -1);
        } while (to < 0 || to == last);
        t[blank] = t[to];
        t[to] = 0;
        last = blank;
        blank = to;
    }
    return make_board(t, 5, 5);
}

/* ---- pieces: the serial counts on any number of threads, and resuming ------ */

/* A journal that keeps every event: each finished piece with the state of its
 * iteration, and each iteration's end. */
typedef struct logged {
    np_iteration it; /* nfinished 0; for an iteration's end, the next one */
    np_piece piece;  /* index SIZE_MAX for an iteration's end */
    char moves[NP_MAX_PATH + 1];
} logged;

typedef struct event_log {
    logged *v;
    size_t n, cap;
} event_log;

static void log_push(event_log *l, const np_iteration *it, const np_piece *p)
{
    if (l->n == l->cap) {
        l->cap = l->cap ? 2 * l->cap : 64;
        l->v = realloc(l->v, l->cap * sizeof *l->v);
        assert_non_null(l->v);
    }
    logged *e = &l->v[l->n++];
    e->it = *it;
    e->it.finished = NULL;
    if (p) {
        e->piece = *p;
        e->moves[0] = 0;
        if (p->length >= 0)
            snprintf(e->moves, sizeof e->moves, "%s", p->moves);
        e->piece.moves = NULL;
    } else {
        memset(&e->piece, 0, sizeof e->piece);
        e->piece.index = SIZE_MAX;
    }
}

static void on_piece(void *ctx, const np_iteration *it, const np_piece *p)
{
    assert_int_equal(it->nfinished, 0);
    assert_true(p->index < it->npieces);
    log_push(ctx, it, p);
}

static void on_iteration(void *ctx, const np_iteration *next)
{
    assert_int_equal(next->depth, 0);
    log_push(ctx, next, NULL);
}

/* As on_iteration, where a stop may cut the list again: depth set then. */
static void on_recut_iteration(void *ctx, const np_iteration *next)
{
    log_push(ctx, next, NULL);
}

static void assert_same_result(const np_result *a, const np_result *b, const char *what)
{
    if (a->generated != b->generated || a->expanded != b->expanded || strcmp(a->moves, b->moves))
        print_message("%s: generated %llu vs %llu, expanded %llu vs %llu, moves %s vs %s\n", what,
                      (unsigned long long)a->generated, (unsigned long long)b->generated,
                      (unsigned long long)a->expanded, (unsigned long long)b->expanded, a->moves,
                      b->moves);
    assert_int_equal(a->status, b->status);
    assert_int_equal(a->length, b->length);
    assert_string_equal(a->moves, b->moves);
    assert_true(a->generated == b->generated);
    assert_true(a->expanded == b->expanded);
}

/* The search of b split over 2 and 3 threads, and in pieces on one thread
 * with a journal, gives the serial search's moves and counts; resumed from
 * the journal's state after any of several events, it ends the same way. */
/* How many resumed searches compare_split saw split again (np_search_opts.piece_nodes),
 * and how many pieces carried over it resumed from. */
static int resplits, carried;

static void compare_split(const np_board *b, const np_geom *g, np_hkind h, double weight)
{
    np_search_opts serial = {.heuristic = h, .weight = weight, .prune = harness_prune};
    np_result *ref = malloc(sizeof *ref), *r = malloc(sizeof *r);
    assert_non_null(ref);
    assert_non_null(r);
    assert_true(np_ida_solve(ref, b, g, &serial) == NP_OK);
    assert_true(ref->extra == 0);
    if (ref->status == NP_STATUS_UNSOLVABLE) {
        free(ref);
        free(r);
        return;
    }
    assert_int_equal(ref->status, NP_STATUS_SOLVED);
    for (int threads = 2; threads <= 3; threads++) {
        np_search_opts split = serial;
        split.threads = threads;
        assert_true(np_ida_solve(r, b, g, &split) == NP_OK);
        assert_same_result(ref, r, threads == 2 ? "2 threads" : "3 threads");
    }
    event_log log = {0};
    np_journal j = {.piece = on_piece, .iteration = on_iteration, .ctx = &log};
    np_search_opts journaled = serial;
    journaled.journal = &j;
    assert_true(np_ida_solve(r, b, g, &journaled) == NP_OK);
    assert_same_result(ref, r, "pieces on one thread");
    /* Resume from the state after events k (as a checkpoint would hold it):
     * the iteration of event k and its pieces finished up to there. */
    size_t cuts[] = {0, log.n / 3, log.n / 2, log.n ? log.n - 1 : 0};
    np_piece *done = malloc((log.n + 1) * sizeof *done);
    assert_non_null(done);
    for (size_t c = 0; c < sizeof cuts / sizeof cuts[0] && log.n; c++) {
        size_t k = cuts[c];
        np_iteration it = log.v[k].it;
        size_t nd = 0;
        if (log.v[k].piece.index != SIZE_MAX)
            for (size_t e = 0; e <= k; e++)
                if (log.v[e].piece.index != SIZE_MAX && log.v[e].it.bound == it.bound) {
                    done[nd] = log.v[e].piece;
                    done[nd].moves = log.v[e].moves;
                    nd++;
                }
        it.nfinished = nd;
        it.finished = done;
        np_search_opts resumed = serial;
        resumed.resume = &it;
        resumed.threads = 1 + (int)(c % 2);
        assert_true(np_ida_solve(r, b, g, &resumed) == NP_OK);
        assert_same_result(ref, r, "resumed");
        /* and with pieces of 1,000 nodes asked for: the resumed iteration is
         * split again, deeper, its finished pieces carried over (the journal
         * shows the new list, its finished pieces first); the same moves and
         * counts, and again when resumed from the new list's state */
        if (it.depth == 0)
            continue;
        event_log relog = {0};
        np_journal rj = {.piece = on_piece, .iteration = on_iteration, .ctx = &relog};
        resumed.piece_nodes = 1000;
        resumed.journal = &rj;
        assert_true(np_ida_solve(r, b, g, &resumed) == NP_OK);
        assert_same_result(ref, r, "resumed, split again");
        if (resumed.threads == 1) { /* a node limit of the serial count: solved, the same */
            np_search_opts limited = resumed;
            limited.journal = NULL;
            limited.max_nodes = ref->generated;
            assert_true(np_ida_solve(r, b, g, &limited) == NP_OK);
            assert_same_result(ref, r, "resumed, split again, at the serial count's node limit");
        }
        if (relog.n && relog.v[0].piece.index != SIZE_MAX && relog.v[0].it.bound == it.bound &&
            relog.v[0].it.depth > it.depth) {
            resplits++;
            size_t upto = 0; /* the new list's pieces finished, up to half the events */
            while (upto < relog.n / 2 + 1 && upto < relog.n &&
                   relog.v[upto].piece.index != SIZE_MAX &&
                   relog.v[upto].it.depth == relog.v[0].it.depth)
                upto++;
            np_piece *again = malloc(upto * sizeof *again);
            assert_non_null(again);
            for (size_t e = 0; e < upto; e++) {
                again[e] = relog.v[e].piece;
                again[e].moves = relog.v[e].moves;
            }
            np_iteration it2 = relog.v[0].it;
            it2.nfinished = upto;
            it2.finished = again;
            for (size_t e = 0; e < upto; e++)
                carried += again[e].span > 0;
            np_search_opts twice = serial;
            twice.resume = &it2;
            assert_true(np_ida_solve(r, b, g, &twice) == NP_OK);
            assert_same_result(ref, r, "resumed from the list split again");
            /* and split once more (on 3 threads: 192 pieces at least) */
            twice.threads = 3;
            twice.piece_nodes = 1000;
            assert_true(np_ida_solve(r, b, g, &twice) == NP_OK);
            assert_same_result(ref, r, "resumed from the list split again, split again");
            free(again);
        }
        free(relog.v);
    }
    /* A state that does not fit the board is refused. */
    if (log.n && log.v[0].piece.index != SIZE_MAX) {
        np_iteration it = log.v[0].it;
        it.npieces += 1;
        np_search_opts resumed = serial;
        resumed.resume = &it;
        assert_int_equal(np_ida_solve(r, b, g, &resumed), NP_EINVAL);
        it = log.v[0].it;
        done[0] = log.v[0].piece;
        done[0].index = it.npieces; /* no such piece */
        it.nfinished = 1;
        it.finished = done;
        assert_int_equal(np_ida_solve(r, b, g, &resumed), NP_EINVAL);
        /* states a damaged checkpoint could hold: pieces deeper than 32
         * moves, finished pieces without a list or without a depth, a
         * solution longer than a path can be */
        it = log.v[0].it;
        it.depth = 33;
        it.nfinished = 0;
        assert_int_equal(np_ida_solve(r, b, g, &resumed), NP_EINVAL);
        it = log.v[0].it;
        it.nfinished = 1;
        it.finished = NULL;
        assert_int_equal(np_ida_solve(r, b, g, &resumed), NP_EINVAL);
        it.finished = done;
        done[0] = log.v[0].piece;
        it.depth = 0;
        assert_int_equal(np_ida_solve(r, b, g, &resumed), NP_EINVAL);
        it = log.v[0].it;
        it.nfinished = 1;
        it.finished = done;
        char longest[NP_MAX_PATH + 2];
        memset(longest, 'U', NP_MAX_PATH + 1);
        longest[NP_MAX_PATH + 1] = 0;
        done[0].length = NP_MAX_PATH + 1;
        done[0].moves = longest;
        assert_int_equal(np_ida_solve(r, b, g, &resumed), NP_EINVAL);
    }
    free(done);
    free(log.v);
    free(ref);
    free(r);
}

static void test_ida_split_counts(void **state)
{
    (void)state;
    np_geom g3, g24, g42, g4, g5;
    assert_true(np_geom_init(&g3, 3, 3, NP_GOAL_BLANK_FIRST) == NP_OK);
    assert_true(np_geom_init(&g24, 2, 4, NP_GOAL_BLANK_FIRST) == NP_OK);
    assert_true(np_geom_init(&g42, 4, 2, NP_GOAL_BLANK_FIRST) == NP_OK);
    assert_true(np_geom_init(&g4, 4, 4, NP_GOAL_BLANK_FIRST) == NP_OK);
    assert_true(np_geom_init(&g5, 5, 5, NP_GOAL_BLANK_FIRST) == NP_OK);
    uint8_t p[9];
    /* every 100th board of the 3x3 sample (distances 0..31), and the goal */
    for (size_t i = 0; i < nsample33; i += UNDER_SANITIZER ? 300 : 100) {
        perm_unrank(sample33[i], p, 9);
        np_board b = make_board(p, 3, 3);
        compare_split(&b, &g3, NP_H_MD, 0);
        compare_split(&b, &g3, NP_H_LC, 0);
        compare_split(&b, &g3, NP_H_MD, 2.0);
    }
    static const uint8_t b24[] = {7, 6, 5, 4, 3, 2, 1, 0}, b42[] = {0, 7, 6, 5, 4, 3, 2, 1};
    np_board b = make_board(b24, 2, 4);
    compare_split(&b, &g24, NP_H_LC, 0);
    b = make_board(b42, 4, 2);
    compare_split(&b, &g42, NP_H_MD, 0);
    load_korf100();
    /* three Korf instances and four 5x5 boards (one and two under the
     * sanitizers, where this test took 34 s) */
    static const int ids[] = {12, 79, 55};
    for (size_t i = 0; i < (UNDER_SANITIZER ? 1 : sizeof ids / sizeof ids[0]); i++) {
        b = make_board(korf[ids[i]].tiles, 4, 4);
        compare_split(&b, &g4, NP_H_LC, 0);
        compare_split(&b, &g4, NP_H_MD, 1.5);
    }
    /* 5x5 boards 50 random moves from the goal */
    uint64_t seed = 0x5911u;
    for (int n = 0; n < (UNDER_SANITIZER ? 2 : 4); n++) {
        b = walk5(50, &seed);
        compare_split(&b, &g5, NP_H_LC, 0);
    }
    print_message("  resumed searches split again: %d (%d carried pieces resumed from)\n", resplits,
                  carried);
    assert_true(resplits > 0 && carried > 0);
}

/* Pieces asked for by the node (piece_nodes 1: as many as allowed) on boards
 * whose iterations have far fewer: the list stops deepening once the tree
 * narrows towards the bound, so the first moves, searched serially, do not
 * swallow the iteration (they did: lists as deep as the solution, 7 to 42
 * times the serial count in extra), and each depth tried extends the one
 * above instead of building the list again from the root (2.2 times the
 * serial count in extra; 0.5 now, the first moves past a solution's piece).
 * One thread, so that no piece after a solution's adds to extra; the counts
 * and lengths are the serial search's. */
static void test_ida_split_narrow(void **state)
{
    (void)state;
    np_geom g3;
    assert_true(np_geom_init(&g3, 3, 3, NP_GOAL_BLANK_FIRST) == NP_OK);
    uint8_t p[9];
    uint64_t generated = 0, extra = 0;
    size_t boards = 0;
    for (size_t i = 0; i < nsample33; i += UNDER_SANITIZER ? 30 : 10) {
        perm_unrank(sample33[i], p, 9);
        const np_board b = make_board(p, 3, 3);
        np_result serial, split;
        const np_search_opts plain = {.heuristic = NP_H_MD};
        assert_true(np_ida_solve(&serial, &b, &g3, &plain) == NP_OK);
        event_log log = {0};
        np_journal j = {.piece = on_piece, .iteration = on_iteration, .ctx = &log};
        const np_search_opts opts = {
            .heuristic = NP_H_MD, .threads = 1, .journal = &j, .piece_nodes = 1};
        assert_true(np_ida_solve(&split, &b, &g3, &opts) == NP_OK);
        assert_int_equal(split.length, or33.dist[sample33[i]]);
        assert_same_result(&serial, &split, "piece_nodes 1, one thread");
        free(log.v);
        generated += split.generated;
        extra += split.extra;
        boards++;
    }
    print_message("  %zu boards: %llu nodes, %llu extra (%.2f times)\n", boards,
                  (unsigned long long)generated, (unsigned long long)extra,
                  (double)extra / (double)generated);
    assert_true(extra <= generated);
}

/* A runner that takes up to 5 pieces at a time and searches them in reverse
 * order with np_ida_piece, as another process would: results come back out
 * of order. */
typedef struct test_runner {
    const np_board *b;
    const np_geom *g;
    np_search_opts opts; /* the search's, without the runner */
    int calls;
    size_t pieces;
    bool stop_one; /* report the first piece taken as stopped */
} test_runner;

static int run_pieces(void *ctx, const np_iteration *it, np_piece_queue *q)
{
    test_runner *tr = ctx;
    tr->calls++;
    for (;;) {
        size_t idx[5];
        int n = 0;
        while (n < 5 && (idx[n] = np_piece_queue_next(q)) != SIZE_MAX)
            n++;
        if (n == 0)
            return NP_OK;
        for (int k = n - 1; k >= 0; k--) {
            np_piece p;
            char moves[NP_MAX_PATH + 1];
            bool stopped;
            assert_int_equal(np_ida_piece(&p, moves, &stopped, tr->b, tr->g, &tr->opts, it, idx[k]),
                             NP_OK);
            assert_false(stopped);
            if (tr->stop_one) {
                stopped = true;
                tr->stop_one = false;
            }
            assert_int_equal(np_piece_queue_done(q, &p, stopped), NP_OK);
            assert_int_equal(np_piece_queue_done(q, &p, false), NP_EINVAL); /* only once */
            tr->pieces++;
        }
    }
}

/* A runner that hands every piece out at once, as npuzzle-mpi does to its
 * workers, and searches them in order on one list; after the first piece
 * holding a solution it stops the rest (np_piece_list_stop), as rank 0 tells
 * its workers to. `halt_at`: after that many pieces, stop all (a limit). */
typedef struct stop_runner {
    const np_board *b;
    const np_geom *g;
    np_search_opts opts;
    size_t stopped, halt_at;
    size_t limited; /* pieces that a node limit of 1 stopped (before the real search) */
} stop_runner;

static int run_stop_pieces(void *ctx, const np_iteration *it, np_piece_queue *q)
{
    stop_runner *sr = ctx;
    np_piece_list *pl;
    assert_int_equal(np_piece_list_open(&pl, sr->b, sr->g, &sr->opts, it), NP_OK);
    size_t n = 0, i;
    size_t *idx = malloc(it->npieces * sizeof *idx);
    assert_non_null(idx);
    while ((i = np_piece_queue_next(q)) != SIZE_MAX)
        idx[n++] = i;
    assert_int_equal(n, it->npieces); /* nothing found yet: all of them go out */
    if (n > 0 && !sr->halt_at) {      /* a node limit on the list stops a piece */
        np_piece p;
        char moves[NP_MAX_PATH + 1];
        bool stopped;
        np_piece_list_limit(pl, 1, 0);
        assert_int_equal(np_piece_list_search(pl, idx[0], &p, moves, &stopped), NP_OK);
        assert_true(stopped || p.expanded <= 1); /* the check comes at an expansion */
        sr->limited += stopped;
        np_piece_list_limit(pl, 0, 0);
    }
    for (size_t k = 0; k < n; k++) {
        if (sr->halt_at && k == sr->halt_at)
            np_piece_list_stop(pl, 0);
        np_piece p;
        char moves[NP_MAX_PATH + 1];
        bool stopped;
        assert_int_equal(np_piece_list_search(pl, idx[k], &p, moves, &stopped), NP_OK);
        if (stopped)
            sr->stopped++;
        else if (p.length >= 0)
            np_piece_list_stop(pl, idx[k] + 1);
        assert_int_equal(np_piece_queue_done(q, &p, stopped), NP_OK);
    }
    free(idx);
    np_piece_list_close(pl);
    return NP_OK;
}

/* Pieces cut after a solution (np_piece_list_stop) are work beyond the
 * serial search, not a limit: the answer and counts are the serial ones. A
 * stop from piece 0 is a limit. A node limit set on the list stops a piece. */
static void test_ida_runner_stop(void **state)
{
    (void)state;
    load_korf100();
    np_geom g4;
    assert_true(np_geom_init(&g4, 4, 4, NP_GOAL_BLANK_FIRST) == NP_OK);
    np_result *ref = malloc(sizeof *ref), *r = malloc(sizeof *r);
    assert_non_null(ref);
    assert_non_null(r);
    size_t cut = 0, limited = 0;
    static const int ids[] = {12, 79, 55, 42};
    for (int k = 0; k < 4; k++) {
        np_board b = make_board(korf[ids[k]].tiles, 4, 4);
        np_search_opts o = {.heuristic = NP_H_LC, .prune = harness_prune};
        assert_true(np_ida_solve(ref, &b, &g4, &o) == NP_OK);
        assert_int_equal(ref->status, NP_STATUS_SOLVED);
        stop_runner sr = {.b = &b, .g = &g4, .opts = o};
        np_piece_runner runner = {.run = run_stop_pieces, .ctx = &sr};
        np_search_opts ro = o;
        ro.runner = &runner;
        ro.threads = 2;
        assert_true(np_ida_solve(r, &b, &g4, &ro) == NP_OK);
        assert_same_result(ref, r, "pieces cut after a solution");
        cut += sr.stopped;
        limited += sr.limited;
        sr = (stop_runner){.b = &b, .g = &g4, .opts = o, .halt_at = 3};
        assert_true(np_ida_solve(r, &b, &g4, &ro) == NP_OK);
        assert_int_equal(r->status, NP_STATUS_LIMIT);
        assert_true(sr.stopped > 0);
    }
    assert_true(cut > 0);     /* the solutions were not all in the last piece */
    assert_true(limited > 0); /* a node limit of 1 on the list stopped pieces */
    print_message("runner stop: %zu pieces cut after a solution, the serial counts\n", cut);
    free(ref);
    free(r);
}

/* np_journal.running: what it was told, and whether in order. */
typedef struct running_log {
    int calls;
    uint64_t last;  /* the last count told */
    bool backwards; /* a count below the one before */
    bool unsplit;   /* told of an iteration without pieces */
} running_log;

static void on_running(void *ctx, const np_iteration *it, uint64_t generated)
{
    running_log *l = ctx;
    l->backwards |= generated < l->last;
    l->unsplit |= it->depth <= 0 || it->npieces == 0;
    l->last = generated;
    l->calls++;
}

/* A search by pieces on threads tells its running count (here every
 * millisecond): never decreasing, and never more than the nodes it generated
 * in all (its count and the work beyond it); a search not split (one thread,
 * a journal without `piece`) and one whose pieces a runner searches, never. */
static void test_ida_journal_running(void **state)
{
    (void)state;
    load_korf100();
    np_geom g4;
    assert_true(np_geom_init(&g4, 4, 4, NP_GOAL_BLANK_FIRST) == NP_OK);
    np_result *r = malloc(sizeof *r), *ref = malloc(sizeof *ref);
    assert_non_null(r);
    assert_non_null(ref);
    /* Korf #2: 15.3 M nodes with Manhattan distance (Korf 1985), tens of
     * milliseconds here */
    np_board b = make_board(korf[2].tiles, 4, 4);
    np_search_opts o = {.heuristic = NP_H_MD, .prune = harness_prune};
    assert_true(np_ida_solve(ref, &b, &g4, &o) == NP_OK);
    running_log l = {0};
    np_journal j = {.running = on_running, .running_every = 0.001, .ctx = &l};
    o.journal = &j;
    o.threads = 2;
    assert_true(np_ida_solve(r, &b, &g4, &o) == NP_OK);
    assert_same_result(ref, r, "told its running count");
    print_message("  Korf #2 on 2 threads: %d running calls, the last %llu of %llu nodes\n",
                  l.calls, (unsigned long long)l.last,
                  (unsigned long long)(r->generated + r->extra));
    assert_true(l.calls > 0);
    assert_false(l.backwards);
    assert_false(l.unsplit);
    assert_true(l.last <= r->generated + r->extra);
    /* not split: one thread, and no `piece` to make it go by pieces */
    l = (running_log){0};
    o.threads = 1;
    assert_true(np_ida_solve(r, &b, &g4, &o) == NP_OK);
    assert_int_equal(l.calls, 0);
    /* the pieces searched by a runner, not by this call's threads */
    test_runner tr = {.b = &b, .g = &g4, .opts = {.heuristic = NP_H_MD, .prune = harness_prune}};
    np_piece_runner runner = {.run = run_pieces, .ctx = &tr};
    o.runner = &runner;
    o.threads = 2;
    assert_true(np_ida_solve(r, &b, &g4, &o) == NP_OK);
    assert_same_result(ref, r, "pieces by a runner, a journal told nothing");
    assert_true(tr.calls > 0);
    assert_int_equal(l.calls, 0);
    free(r);
    free(ref);
}

/* Boards a few moves from the goal, whose first moves hold the goal: the
 * list is deepened by extending the one a move shallower, and where the goal
 * lies a move deeper the list ends there with the counts of a list built
 * from the root, which a runner's np_ida_piece builds. Every 8-puzzle board
 * 2 to 8 moves out, one and two threads and a runner, as many pieces as
 * allowed and the default: the serial search's moves and counts, which a
 * node limit of exactly that count still reaches and one node fewer does
 * not (one thread); every 8th also resumed and split again (compare_split),
 * whose lists a build with -Dself_check=true checks too. */
static void test_ida_split_goal_near(void **state)
{
    (void)state;
    np_geom g3;
    assert_true(np_geom_init(&g3, 3, 3, NP_GOAL_BLANK_FIRST) == NP_OK);
    uint8_t p[9];
    size_t boards = 0;
    for (uint32_t r = 0; r < 181440; r++) {
        if (or33.dist[r] < 2 || or33.dist[r] > 8)
            continue;
        perm_unrank(r, p, 9);
        const np_board b = make_board(p, 3, 3);
        np_result serial, split;
        const np_search_opts plain = {.heuristic = NP_H_MD};
        assert_true(np_ida_solve(&serial, &b, &g3, &plain) == NP_OK);
        assert_int_equal(serial.length, or33.dist[r]);
        for (int threads = 1; threads <= 3; threads++) {
            for (int nodes = 0; nodes <= 1; nodes++) {
                np_search_opts o = {.heuristic = NP_H_MD,
                                    .threads = threads == 3 ? 2 : threads,
                                    .piece_nodes = (uint64_t)nodes};
                test_runner tr = {.b = &b, .g = &g3, .opts = o};
                np_piece_runner runner = {.run = run_pieces, .ctx = &tr};
                if (threads == 3)
                    o.runner = &runner; /* the pieces' lists built from the root */
                assert_true(np_ida_solve(&split, &b, &g3, &o) == NP_OK);
                assert_same_result(&serial, &split, "a board near the goal, in pieces");
                if (threads != 1 || nodes == 0)
                    continue; /* several count the nodes past a solution's too */
                o.max_nodes = serial.generated;
                assert_true(np_ida_solve(&split, &b, &g3, &o) == NP_OK);
                assert_same_result(&serial, &split, "a node limit of the serial count");
                o.max_nodes = serial.generated - 1;
                assert_true(np_ida_solve(&split, &b, &g3, &o) == NP_OK);
                assert_int_equal(split.status, NP_STATUS_LIMIT);
            }
        }
        if (boards % 8 == 0) { /* resumed, and lists split again (resplit) near the goal */
            compare_split(&b, &g3, NP_H_MD, 0);
            compare_split(&b, &g3, NP_H_LC, 0);
        }
        boards++;
    }
    print_message("  %zu boards 2 to 8 moves out\n", boards);
    assert_true(boards > 200);
}

/* Pieces searched by a runner (np_ida_piece, out of order) give the serial
 * moves and counts; a piece reported stopped ends the search with a limit;
 * np_ida_piece refuses an iteration that does not fit the board. */
static void test_ida_runner(void **state)
{
    (void)state;
    load_korf100();
    np_geom g3, g4;
    assert_true(np_geom_init(&g3, 3, 3, NP_GOAL_BLANK_FIRST) == NP_OK);
    assert_true(np_geom_init(&g4, 4, 4, NP_GOAL_BLANK_FIRST) == NP_OK);
    np_result *ref = malloc(sizeof *ref), *r = malloc(sizeof *r);
    assert_non_null(ref);
    assert_non_null(r);
    size_t pieces = 0;
    int boards = 0;
    for (int k = 0; k < 8; k++) {
        np_board b;
        const np_geom *g = k < 4 ? &g3 : &g4;
        if (k < 4) {
            uint8_t p[9];
            perm_unrank(sample33[(size_t)k * 500 % nsample33], p, 9);
            b = make_board(p, 3, 3);
        } else {
            static const int ids[] = {12, 79, 55, 42};
            b = make_board(korf[ids[k - 4]].tiles, 4, 4);
        }
        np_search_opts o = {.heuristic = k % 2 ? NP_H_LC : NP_H_MD, .prune = harness_prune};
        assert_true(np_ida_solve(ref, &b, g, &o) == NP_OK);
        if (ref->status != NP_STATUS_SOLVED)
            continue;
        test_runner tr = {.b = &b, .g = g, .opts = o};
        np_piece_runner runner = {.run = run_pieces, .ctx = &tr};
        np_search_opts ro = o;
        ro.runner = &runner;
        ro.threads = 2;
        assert_true(np_ida_solve(r, &b, g, &ro) == NP_OK);
        assert_same_result(ref, r, "pieces by a runner");
        if (ref->length > 0)
            assert_true(tr.calls > 0);
        pieces += tr.pieces;
        boards++;
        if (ref->length >= 2) {
            tr.stop_one = true;
            assert_true(np_ida_solve(r, &b, g, &ro) == NP_OK);
            assert_int_equal(r->status, NP_STATUS_LIMIT);
            assert_int_equal(r->length, -1);
        }
    }
    /* an iteration that does not fit */
    np_board b = make_board(korf[12].tiles, 4, 4);
    np_search_opts o = {.heuristic = NP_H_MD};
    np_iteration it = {.bound = 40, .depth = 3, .npieces = 1};
    np_piece p;
    char moves[NP_MAX_PATH + 1];
    bool stopped;
    assert_int_equal(np_ida_piece(&p, moves, &stopped, &b, &g4, &o, &it, 0), NP_EINVAL);
    it.depth = 0;
    assert_int_equal(np_ida_piece(&p, moves, &stopped, &b, &g4, &o, &it, 0), NP_EINVAL);
    print_message("runner: %d boards, %zu pieces searched out of order, the serial counts\n",
                  boards, pieces);
    assert_true(boards >= 6 && pieces > 100);
    free(ref);
    free(r);
}

/* A node limit that stops a split search in its last iteration: the answer is
 * the serial one (moves and counts) or "limit", never a solution found while a
 * piece before it was cut (the serial search may meet another one first); and
 * a resumed search counts the nodes before the resume towards the limit. */
static void test_ida_split_limit(void **state)
{
    (void)state;
    load_korf100();
    np_geom g4;
    assert_true(np_geom_init(&g4, 4, 4, NP_GOAL_BLANK_FIRST) == NP_OK);
    np_result *ref = malloc(sizeof *ref), *r = malloc(sizeof *r);
    assert_non_null(ref);
    assert_non_null(r);
    int solved = 0, limited = 0;
    static const int ids[] = {12, 79, 55};
    for (size_t k = 0; k < sizeof ids / sizeof ids[0]; k++) {
        np_board b = make_board(korf[ids[k]].tiles, 4, 4);
        np_search_opts o = {.heuristic = NP_H_LC, .prune = harness_prune};
        assert_true(np_ida_solve(ref, &b, &g4, &o) == NP_OK);
        assert_int_equal(ref->status, NP_STATUS_SOLVED);
        const int steps = UNDER_SANITIZER ? 8 : 24; /* about 12 times slower there */
        for (int step = 1; step <= steps; step++) {
            o.threads = 2 + step % 2;
            o.max_nodes = ref->generated - ref->generated / (2 * (uint64_t)steps) * (uint64_t)step;
            assert_true(np_ida_solve(r, &b, &g4, &o) == NP_OK);
            if (r->status == NP_STATUS_SOLVED) {
                assert_same_result(ref, r, "split, under a node limit");
                solved++;
            } else {
                assert_int_equal(r->status, NP_STATUS_LIMIT);
                assert_int_equal(r->length, -1);
                limited++;
            }
        }
        /* resumed late in the last iteration (its pieces before the
         * solution's finished), with a limit the nodes before the resume
         * already reach: stopped at once, though what is left is less */
        event_log log = {0};
        np_journal j = {.piece = on_piece, .iteration = on_iteration, .ctx = &log};
        o.threads = 1;
        o.max_nodes = 0;
        o.journal = &j;
        assert_true(np_ida_solve(r, &b, &g4, &o) == NP_OK);
        size_t sol = log.n;
        while (sol > 0 && log.v[sol - 1].piece.length < 0)
            sol--;
        assert_true(sol > 1 && log.v[sol - 1].piece.index != SIZE_MAX);
        sol--; /* the event of the piece holding the solution */
        np_iteration it = log.v[sol].it;
        np_piece *done = malloc((log.n + 1) * sizeof *done);
        assert_non_null(done);
        uint64_t before = it.generated;
        size_t nd = 0;
        for (size_t e = 0; e < sol; e++)
            if (log.v[e].piece.index != SIZE_MAX && log.v[e].it.bound == it.bound) {
                done[nd] = log.v[e].piece;
                before += done[nd++].generated;
            }
        it.nfinished = nd;
        it.finished = done;
        assert_true(nd > 0 && ref->generated - before < before);
        o.journal = NULL;
        o.resume = &it;
        o.max_nodes = before;
        assert_true(np_ida_solve(r, &b, &g4, &o) == NP_OK);
        assert_int_equal(r->status, NP_STATUS_LIMIT);
        free(done);
        free(log.v);
    }
    print_message("node limits in the last iteration, 2 and 3 threads: %d serial answers, %d "
                  "limits\n",
                  solved, limited);
    assert_true(limited > 0);
    free(ref);
    free(r);
}

/* The state a checkpoint keeps from the journal's events: the last iteration
 * told, with the pieces told of that same list (its bound, depth and pieces)
 * after it. *it gets the state, done[] its finished pieces (log's moves). */
static void journal_state(const event_log *log, np_iteration *it, np_piece *done)
{
    size_t nd = 0;
    *it = (np_iteration){0};
    for (size_t e = 0; e < log->n; e++) {
        const logged *v = &log->v[e];
        if (v->piece.index == SIZE_MAX || v->it.bound != it->bound || v->it.depth != it->depth ||
            v->it.npieces != it->npieces) {
            *it = v->it;
            nd = 0;
        }
        if (v->piece.index != SIZE_MAX) {
            done[nd] = v->piece;
            done[nd++].moves = v->moves;
        }
    }
    it->nfinished = nd;
    it->finished = done;
}

/* One past the journal's last iteration event (0: none). */
static size_t last_iteration_event(const event_log *log)
{
    size_t last = log->n;
    while (last > 0 && log->v[last - 1].piece.index != SIZE_MAX)
        last--;
    return last;
}

/* Resumed from the state a checkpoint keeps of log (journal_state) on
 * `threads` threads, the search of b with options o gives ref's moves and
 * counts. */
static void assert_resumes(const event_log *log, const np_board *b, const np_geom *g,
                           const np_search_opts *o, int threads, const np_result *ref,
                           const char *what)
{
    np_piece *done = malloc((log->n + 1) * sizeof *done);
    np_result *r = malloc(sizeof *r);
    assert_non_null(done);
    assert_non_null(r);
    np_iteration it;
    journal_state(log, &it, done);
    np_search_opts resumed = *o;
    resumed.resume = &it;
    resumed.threads = threads;
    assert_true(np_ida_solve(r, b, g, &resumed) == NP_OK);
    assert_same_result(ref, r, what);
    free(r);
    free(done);
}

/* A runner (as npuzzle-mpi's rank 0) that has the pieces searched in order
 * and reports the first one of `heavy` nodes or more without a solution as
 * stopped, as a rank cut short at a stop reports its piece. */
typedef struct heavy_runner {
    const np_board *b;
    const np_geom *g;
    np_search_opts opts; /* the search's, without the runner */
    uint64_t heavy;
    bool reported; /* a piece reported stopped */
} heavy_runner;

static int run_heavy_stop(void *ctx, const np_iteration *it, np_piece_queue *q)
{
    heavy_runner *hr = ctx;
    size_t i;
    while ((i = np_piece_queue_next(q)) != SIZE_MAX) {
        np_piece p;
        char moves[NP_MAX_PATH + 1];
        bool stopped;
        assert_int_equal(np_ida_piece(&p, moves, &stopped, hr->b, hr->g, &hr->opts, it, i), NP_OK);
        assert_false(stopped);
        stopped = !hr->reported && p.length < 0 && p.generated >= hr->heavy;
        hr->reported = hr->reported || stopped;
        assert_int_equal(np_piece_queue_done(q, &p, stopped), NP_OK);
    }
    return NP_OK;
}

/* A stop (a node limit here, on one thread: the same every time) that cuts a
 * piece short after 4 times the nodes asked of a piece or more cuts the
 * iteration's list again, deeper, for the run that resumes it: the journal's
 * last events are the iteration with its new list (more pieces, deeper) and
 * the finished pieces carried over (span set); resumed from that state, the
 * search gives the serial moves and counts. Pieces asked larger than any
 * stopped piece grows leave the list as it was at every stop, and so does a
 * journal without recut_at_stop (one that keeps no state for a resume). */
static void test_ida_recut_at_stop(void **state)
{
    (void)state;
    load_korf100();
    np_geom g4;
    assert_true(np_geom_init(&g4, 4, 4, NP_GOAL_BLANK_FIRST) == NP_OK);
    np_result *ref = malloc(sizeof *ref), *r = malloc(sizeof *r);
    assert_non_null(ref);
    assert_non_null(r);
    int recuts = 0, stops = 0;
    static const int ids[] = {12, 79, 55};
    static const uint64_t sizes[] = {64, (uint64_t)1 << 40};
    const int steps = UNDER_SANITIZER ? 4 : 16;
    for (size_t k = 0; k < sizeof ids / sizeof ids[0]; k++) {
        np_board b = make_board(korf[ids[k]].tiles, 4, 4);
        np_search_opts o = {.heuristic = NP_H_LC, .prune = harness_prune};
        assert_true(np_ida_solve(ref, &b, &g4, &o) == NP_OK);
        assert_int_equal(ref->status, NP_STATUS_SOLVED);
        for (size_t z = 0; z < sizeof sizes / sizeof sizes[0]; z++) {
            for (int step = 1; step <= steps; step++) {
                event_log log = {0};
                np_journal j = {.piece = on_piece,
                                .iteration = on_recut_iteration,
                                .recut_at_stop = true,
                                .ctx = &log};
                np_search_opts lim = o;
                lim.threads = 1;
                lim.piece_nodes = sizes[z];
                lim.max_nodes = ref->generated / (uint64_t)(steps + 1) * (uint64_t)step;
                /* a journal that keeps no state a stop leaves: never cut
                 * again (on_iteration fails on a depth) */
                np_journal plain = {.piece = on_piece, .iteration = on_iteration, .ctx = &log};
                lim.journal = &plain;
                assert_true(np_ida_solve(r, &b, &g4, &lim) == NP_OK);
                assert_int_equal(r->status, NP_STATUS_LIMIT);
                free(log.v);
                log = (event_log){0};
                lim.journal = &j;
                assert_true(np_ida_solve(r, &b, &g4, &lim) == NP_OK);
                assert_int_equal(r->status, NP_STATUS_LIMIT);
                stops++;
                /* the last iteration event, and whether it is a list cut again */
                const size_t last = last_iteration_event(&log);
                const bool recut = last > 0 && log.v[last - 1].it.depth != 0;
                if (recut) {
                    const np_iteration *nit = &log.v[last - 1].it;
                    assert_true(z == 0); /* never with pieces larger than the stopped one */
                    recuts++;
                    /* the list before the stop, as its finished pieces told it */
                    uint64_t searched = 0, carried_nodes = 0;
                    for (size_t e = last - 1; e-- > 0 && log.v[e].piece.index != SIZE_MAX &&
                         log.v[e].it.bound == nit->bound;) {
                        assert_true(log.v[e].it.depth < nit->depth);
                        assert_true(log.v[e].it.npieces < nit->npieces);
                        searched += log.v[e].piece.generated;
                    }
                    for (size_t e = last; e < log.n; e++) { /* carried over, in order */
                        assert_true(log.v[e].piece.span > 0);
                        assert_true(log.v[e].it.depth == nit->depth);
                        assert_true(e == last || log.v[e].piece.index > log.v[e - 1].piece.index);
                        carried_nodes += log.v[e].piece.generated;
                    }
                    /* every finished piece carried over, less its first moves */
                    assert_true(carried_nodes <= searched);
                    assert_true(searched == 0 || (log.n > last && carried_nodes > 0));
                }
                assert_resumes(&log, &b, &g4, &o, 1 + step % 2, ref,
                               recut ? "resumed from a list cut again at a stop"
                                     : "resumed after a stop");
                free(log.v);
            }
        }
    }
    print_message("node limits with a journal: %d stops, %d lists cut again\n", stops, recuts);
    assert_true(recuts > 0);
    /* the same through a runner, whose ranks report a piece stopped after 4
     * times the nodes asked of a piece: the list is cut again every time */
    for (size_t k = 0; k < sizeof ids / sizeof ids[0]; k++) {
        np_board b = make_board(korf[ids[k]].tiles, 4, 4);
        np_search_opts o = {.heuristic = NP_H_LC, .prune = harness_prune};
        assert_true(np_ida_solve(ref, &b, &g4, &o) == NP_OK);
        heavy_runner hr = {.b = &b, .g = &g4, .opts = o, .heavy = 4 * 64};
        np_piece_runner runner = {.run = run_heavy_stop, .ctx = &hr};
        event_log log = {0};
        np_journal j = {
            .piece = on_piece, .iteration = on_recut_iteration, .recut_at_stop = true, .ctx = &log};
        np_search_opts ro = o;
        ro.runner = &runner;
        ro.threads = 2;
        ro.journal = &j;
        ro.piece_nodes = 64;
        assert_true(np_ida_solve(r, &b, &g4, &ro) == NP_OK);
        assert_true(hr.reported);
        assert_int_equal(r->status, NP_STATUS_LIMIT);
        assert_true(log.n > 0);
        const size_t last = last_iteration_event(&log);
        assert_true(last > 0 && log.v[last - 1].it.depth != 0); /* cut again */
        assert_resumes(&log, &b, &g4, &o, 0, ref, "resumed from a list a runner's stop cut again");
        free(log.v);
    }
    free(ref);
    free(r);
}

/* ---- duplicate pruning by the machine (fsm.h) --------------------------------- */

/* With the machine on, every length still equals the BFS distance: on every
 * board of the 8-puzzle (md, a stratified sample under the sanitizers; a
 * stratified sample with lc), of the 2x3, 3x2 and
 * 2x4 puzzles, and on samples of the 2x5 and 5x2 puzzles; and the
 * split search still gives the serial counts. The machine cuts nodes: fewer
 * are generated than with parent pruning alone. */
static void test_ida_fsm_optimal(void **state)
{
    (void)state;
    harness_prune = NP_PRUNE_FSM;
    uint32_t *r25, *r52;
    /* 3 boards (1 under the sanitizers) at each distance 0..55 */
    const uint32_t per = UNDER_SANITIZER ? 1 : 3;
    size_t n25 = stratified_sample(&or25, per, &r25), n52 = stratified_sample(&or52, per, &r52);
    assert_true(n25 >= 50 * per && n52 >= 50 * per);
    double t0 = now();
    if (UNDER_SANITIZER) /* about 12 times slower: the sample */
        run_sample(np_ida_solve, "ida-fsm", &or33, sample33, nsample33, NP_H_MD, 0);
    else
        run_all(np_ida_solve, "ida-fsm", &or33, NP_H_MD, 0); /* all 181,440 */
    double t1 = now();
    run_sample(np_ida_solve, "ida-fsm", &or33, sample33, nsample33, NP_H_LC, 0);
    harness_prune = NP_PRUNE_FSM12; /* the 12-move machine of earlier versions */
    run_sample(np_ida_solve, "ida-fsm12", &or33, sample33, nsample33, NP_H_MD, 0);
    harness_prune = NP_PRUNE_FSM;
    uint32_t *r24;
    size_t n24 = stratified_sample(&or24, 40, &r24);
    for (int h = NP_H_MD; h <= NP_H_LC; h++) {
        run_all(np_ida_solve, "ida-fsm", &or23, (np_hkind)h, 0);
        run_all(np_ida_solve, "ida-fsm", &or32, (np_hkind)h, 0);
        if (UNDER_SANITIZER)
            run_sample(np_ida_solve, "ida-fsm", &or24, r24, n24, (np_hkind)h, 0);
        else
            run_all(np_ida_solve, "ida-fsm", &or24, (np_hkind)h, 0);
    }
    free(r24);
    double t2 = now();
    for (int h = NP_H_MD; h <= (UNDER_SANITIZER ? NP_H_MD : NP_H_LC); h++) {
        run_sample(np_ida_solve, "ida-fsm", &or25, r25, n25, (np_hkind)h, 0);
        run_sample(np_ida_solve, "ida-fsm", &or52, r52, n52, (np_hkind)h, 0);
    }
    print_message("%s 3x3 board (md) %.2f s; the 3x3 sample (lc), 2x3, 3x2, 2x4 boards "
                  "%.2f s; %zu 2x5 and %zu 5x2 boards %.2f s\n",
                  UNDER_SANITIZER ? "a sample of each distance of" : "every", t1 - t0, t2 - t1, n25,
                  n52, now() - t2);
    run_sample(np_ida_solve, "ida-fsm", &or33, sample33, nsample33, NP_H_MD, 2.0);
    free(r25);
    free(r52);
    /* the split search, resumed too */
    np_geom g3, g4;
    assert_true(np_geom_init(&g3, 3, 3, NP_GOAL_BLANK_FIRST) == NP_OK);
    assert_true(np_geom_init(&g4, 4, 4, NP_GOAL_BLANK_FIRST) == NP_OK);
    uint8_t p[9];
    for (size_t i = 0; i < nsample33; i += 300) {
        perm_unrank(sample33[i], p, 9);
        np_board b = make_board(p, 3, 3);
        compare_split(&b, &g3, NP_H_MD, 0);
    }
    load_korf100();
    static const int ids[] = {12, 79, 55};
    uint64_t parent = 0, fsm = 0, fsm12 = 0;
    np_result *r = malloc(sizeof *r);
    assert_non_null(r);
    for (size_t i = 0; i < sizeof ids / sizeof ids[0]; i++) {
        np_board b = make_board(korf[ids[i]].tiles, 4, 4);
        compare_split(&b, &g4, NP_H_LC, 0);
        np_search_opts o = {.heuristic = NP_H_LC, .prune = NP_PRUNE_FSM};
        assert_true(np_ida_solve(r, &b, &g4, &o) == NP_OK);
        check_korf_solution(&korf[ids[i]], r, "lc, fsm");
        fsm += r->generated;
        o.prune = NP_PRUNE_FSM12;
        assert_true(np_ida_solve(r, &b, &g4, &o) == NP_OK);
        check_korf_solution(&korf[ids[i]], r, "lc, fsm12");
        fsm12 += r->generated;
        o.prune = NP_PRUNE_PARENT;
        assert_true(np_ida_solve(r, &b, &g4, &o) == NP_OK);
        parent += r->generated;
    }
    print_message("Korf #12, #79, #55 with lc: %llu nodes generated with parent pruning, %llu "
                  "with the 12-move machine, %llu with the 14-move one\n",
                  (unsigned long long)parent, (unsigned long long)fsm12, (unsigned long long)fsm);
    /* each machine refuses every string the shorter one does, and more */
    assert_true(fsm < fsm12 && fsm12 < parent);
    free(r);
    harness_prune = NP_PRUNE_DEFAULT;
}

/* ---- batch: same answers whatever the thread count, in input order ----------- */

static void test_batch_threads(void **state)
{
    (void)state;
    enum { N = 50 };
    np_geom g;
    assert_true(np_geom_init(&g, 3, 3, NP_GOAL_BLANK_FIRST) == NP_OK);
    np_board *boards = calloc(N, sizeof *boards);
    np_result *r1 = calloc(N, sizeof *r1), *r2 = calloc(N, sizeof *r2), *one = malloc(sizeof *one);
    assert_non_null(boards);
    assert_non_null(r1);
    assert_non_null(r2);
    assert_non_null(one);
    uint8_t p[9];
    /* every 40th sample board (hard and easy ones mixed), the goal and an unsolvable one */
    for (int i = 0; i < N - 1; i++) {
        perm_unrank(sample33[(size_t)i * (nsample33 / N)], p, 9);
        boards[i] = make_board(p, 3, 3);
    }
    static const uint8_t unsolvable[9] = {0, 2, 1, 3, 4, 5, 6, 7, 8};
    boards[N - 1] = make_board(unsolvable, 3, 3);
    for (int h = NP_H_MD; h <= NP_H_LC; h++) {
        np_search_opts opts;
        memset(&opts, 0, sizeof opts);
        opts.heuristic = (np_hkind)h;
        np_batch_opts b1, b2;
        memset(&b1, 0, sizeof b1);
        memset(&b2, 0, sizeof b2);
        b1.algorithm = b2.algorithm = NP_ALG_IDA;
        b1.threads = 1;
        b2.threads = 2;
        assert_true(np_batch_solve(r1, boards, N, &g, &opts, &b1) == NP_OK);
        assert_true(np_batch_solve(r2, boards, N, &g, &opts, &b2) == NP_OK);
        for (int i = 0; i < N; i++) {
            assert_true(np_ida_solve(one, &boards[i], &g, &opts) == NP_OK);
            const np_result *rs[2] = {r1 + i, r2 + i};
            for (int k = 0; k < 2; k++) {
                const np_result *r = rs[k];
                if (r->status != one->status || r->length != one->length ||
                    r->generated != one->generated || r->expanded != one->expanded ||
                    r->h0 != one->h0 || strcmp(r->moves, one->moves) != 0)
                    fail_msg("batch (%s, %d threads) board %d: status %d length %d gen %llu exp "
                             "%llu h0 %d moves %s; alone: status %d length %d gen %llu exp %llu "
                             "h0 %d moves %s",
                             np_hkind_name((np_hkind)h), k + 1, i, (int)r->status, r->length,
                             (unsigned long long)r->generated, (unsigned long long)r->expanded,
                             r->h0, r->moves, (int)one->status, one->length,
                             (unsigned long long)one->generated, (unsigned long long)one->expanded,
                             one->h0, one->moves);
            }
            if (i < N - 1) {
                perm_unrank(sample33[(size_t)i * (nsample33 / N)], p, 9);
                assert_int_equal(r1[i].length, or33.dist[perm_rank(p, 9)]);
            } else {
                assert_int_equal(r1[i].status, NP_STATUS_UNSOLVABLE);
            }
        }
    }
    free(boards);
    free(r1);
    free(r2);
    free(one);
}

/* Fewer boards than threads: each board gets every thread (prepare sees
 * them), one board after the other (progress in input order), with the serial
 * search's answers and counts. */
typedef struct few_log {
    int threads[8], index[8];
    size_t done[8];
    int nprepare, nprogress;
} few_log;

static void few_prepare(void *ctx, size_t index, np_search_opts *opts)
{
    few_log *l = ctx;
    if (l->nprepare < 8)
        l->threads[l->nprepare++] = opts->threads;
    (void)index;
}

static void few_progress(void *ctx, size_t index, size_t done, size_t total, const np_result *r)
{
    few_log *l = ctx;
    (void)total;
    (void)r;
    if (l->nprogress < 8) {
        l->index[l->nprogress] = (int)index;
        l->done[l->nprogress++] = done;
    }
}

static void test_batch_few_boards(void **state)
{
    (void)state;
    enum { N = 4, THREADS = 5 };
    np_geom g;
    assert_true(np_geom_init(&g, 4, 4, NP_GOAL_BLANK_FIRST) == NP_OK);
    static const int ids[N] = {9, 12, 42, 55}; /* small with lc */
    np_board boards[N];
    for (int i = 0; i < N; i++)
        boards[i] = make_board(korf[ids[i]].tiles, 4, 4);
    np_search_opts opts;
    memset(&opts, 0, sizeof opts);
    opts.heuristic = NP_H_LC;
    few_log log;
    memset(&log, 0, sizeof log);
    np_batch_opts bo;
    memset(&bo, 0, sizeof bo);
    bo.algorithm = NP_ALG_IDA;
    bo.threads = THREADS;
    bo.prepare = few_prepare;
    bo.prepare_ctx = &log;
    bo.progress = few_progress;
    bo.progress_ctx = &log;
    np_result *res = calloc(N, sizeof *res), *one = calloc(1, sizeof *one);
    assert_non_null(res);
    assert_non_null(one);
    assert_true(np_batch_solve(res, boards, N, &g, &opts, &bo) == NP_OK);
    assert_int_equal(log.nprepare, N);
    assert_int_equal(log.nprogress, N);
    for (int i = 0; i < N; i++) {
        assert_int_equal(log.threads[i], THREADS);
        assert_int_equal(log.index[i], i);
        assert_int_equal(log.done[i], (size_t)i + 1);
        check_korf_solution(&korf[ids[i]], &res[i], "lc, batch of 4 on 5 threads");
        assert_true(np_ida_solve(one, &boards[i], &g, &opts) == NP_OK);
        assert_int_equal(res[i].generated, one->generated);
        assert_int_equal(res[i].expanded, one->expanded);
        assert_string_equal(res[i].moves, one->moves);
    }
    /* as many boards as threads: one to a thread */
    memset(&log, 0, sizeof log);
    bo.threads = N;
    assert_true(np_batch_solve(res, boards, N, &g, &opts, &bo) == NP_OK);
    for (int i = 0; i < N; i++)
        assert_int_equal(log.threads[i], 1);
    /* unless NP_BATCH_ONE_AT_A_TIME asks for every thread on each board */
    memset(&log, 0, sizeof log);
    bo.threads = 2;
    bo.mode = NP_BATCH_ONE_AT_A_TIME;
    assert_true(np_batch_solve(res, boards, N, &g, &opts, &bo) == NP_OK);
    for (int i = 0; i < N; i++) {
        assert_int_equal(log.threads[i], 2);
        assert_int_equal(log.index[i], i);
        check_korf_solution(&korf[ids[i]], &res[i], "lc, batch of 4 one at a time");
    }
    /* NP_BATCH_PARALLEL: one to a thread even with fewer boards than threads */
    memset(&log, 0, sizeof log);
    bo.threads = THREADS;
    bo.mode = NP_BATCH_PARALLEL;
    assert_true(np_batch_solve(res, boards, N, &g, &opts, &bo) == NP_OK);
    for (int i = 0; i < N; i++)
        assert_int_equal(log.threads[i], 1);
    /* the rule itself: one board, fewer boards than threads, 25 cells or more */
    np_geom g5;
    assert_true(np_geom_init(&g5, 5, 5, NP_GOAL_BLANK_FIRST) == NP_OK);
    np_batch_opts rule;
    memset(&rule, 0, sizeof rule);
    rule.threads = 2;
    assert_true(np_batch_one_at_a_time(1, &g, &rule));
    assert_false(np_batch_one_at_a_time(2, &g, &rule));
    assert_true(np_batch_one_at_a_time(2, &g5, &rule));
    assert_true(np_batch_one_at_a_time(1, &g, NULL));
    assert_true(np_batch_one_at_a_time(3, &g5, NULL));
    rule.mode = NP_BATCH_PARALLEL;
    assert_false(np_batch_one_at_a_time(2, &g5, &rule));
    rule.mode = NP_BATCH_AUTO;
    rule.algorithm = NP_ALG_ASTAR;
    assert_false(np_batch_one_at_a_time(2, &g5, &rule));
    free(res);
    free(one);
}

/* Per-test wall time, printed so that slow parts show up in the test log. */

/* ---- specialised kernels ------------------------------------------------- */

/* Blind iterative deepening (no heuristic; only the move undoing the last one
 * is skipped): the exact distance of a board to the blank-first goal, when it
 * is at most maxd; -1 beyond. The test's own search, for boards close enough
 * to the goal that searching every path is cheap (5x5, up to ~20 moves). */
static bool blind_dfs(uint8_t *t, int rows, int cols, int blank, int last, int left)
{
    const int n = rows * cols;
    bool home = true;
    for (int c = 0; c < n && home; c++)
        home = t[c] == c;
    if (home)
        return true;
    if (left == 0)
        return false;
    static const int dr[4] = {-1, 1, 0, 0}, dc[4] = {0, 0, -1, 1};
    for (int d = 0; d < 4; d++) {
        const int r = blank / cols + dr[d], c = blank % cols + dc[d], to = r * cols + c;
        if (r < 0 || r >= rows || c < 0 || c >= cols || to == last)
            continue;
        t[blank] = t[to];
        t[to] = 0;
        const bool found = blind_dfs(t, rows, cols, to, blank, left - 1);
        t[to] = t[blank];
        t[blank] = 0;
        if (found)
            return true;
    }
    return false;
}

static int blind_distance(const np_board *b, int maxd)
{
    uint8_t t[NP_MAX_CELLS];
    memcpy(t, b->tiles, (size_t)(b->rows * b->cols));
    for (int d = 0; d <= maxd; d++)
        if (blind_dfs(t, b->rows, b->cols, b->blank, -1, d))
            return d;
    return -1;
}

/* The 24-puzzle's own kernel against the truth: 5x5 boards up to 20 random
 * moves from the goal, their distances by blind search; IDA* with md and lc
 * finds a path of exactly that length that replays to the goal. */
static void test_ida_5x5_exact(void **state)
{
    (void)state;
    np_geom g5;
    assert_true(np_geom_init(&g5, 5, 5, NP_GOAL_BLANK_FIRST) == NP_OK);
    np_result *res = malloc(sizeof *res);
    assert_non_null(res);
    uint64_t seed = 0x24a5e7ULL;
    const int boards = UNDER_SANITIZER ? 8 : 26;
    int longest = 0;
    for (int n = 0; n < boards; n++) {
        np_board b = walk5(8 + n % 13, &seed); /* 8 to 20 moves */
        const int want = blind_distance(&b, 20);
        assert_true(want >= 0);
        longest = want > longest ? want : longest;
        for (np_hkind h = NP_H_MD; h <= NP_H_LC; h++) {
            np_search_opts opts = {.heuristic = h};
            assert_true(np_ida_solve(res, &b, &g5, &opts) == NP_OK);
            if (res->status != NP_STATUS_SOLVED || res->length != want)
                fail_msg("5x5 board %d (%s): length %d, blind search %d", n,
                         h == NP_H_MD ? "md" : "lc", res->length, want);
            assert_true(replays_to_goal(b.tiles, 5, 5, 0, res->moves, want));
        }
    }
    print_message("  %d 5x5 boards, distances up to %d: exact\n", boards, longest);
    assert_true(longest >= 10); /* the walks are not all short cuts back */
    free(res);
}

/* The 4x4 and 5x5 kernels compute neighbours and transposes from constants;
 * they must walk exactly the tree of the general kernel: same path, same
 * node counts, for every heuristic and with weights. */
static void compare_kernels(const np_board *b, const np_geom *g, np_hkind h, double weight)
{
    np_search_opts fast = {.heuristic = h, .weight = weight};
    np_search_opts slow = fast;
    slow.generic_kernel = true;
    np_result *a = malloc(sizeof *a), *c = malloc(sizeof *c);
    assert_non_null(a);
    assert_non_null(c);
    assert_true(np_ida_solve(a, b, g, &fast) == NP_OK);
    assert_true(np_ida_solve(c, b, g, &slow) == NP_OK);
    assert_int_equal(a->status, NP_STATUS_SOLVED);
    assert_int_equal(a->status, c->status);
    assert_int_equal(a->length, c->length);
    assert_string_equal(a->moves, c->moves);
    assert_true(a->generated == c->generated);
    assert_true(a->expanded == c->expanded);
    assert_true(replays_to_goal(b->tiles, g->rows, g->cols, 0, a->moves, a->length));
    free(a);
    free(c);
}

static void test_ida_specialised_kernels(void **state)
{
    (void)state;
    load_korf100();
    np_geom g4, g5;
    assert_true(np_geom_init(&g4, 4, 4, NP_GOAL_BLANK_FIRST) == NP_OK);
    assert_true(np_geom_init(&g5, 5, 5, NP_GOAL_BLANK_FIRST) == NP_OK);
    /* 4x4: a few of the easy Korf instances (ids 9, 12, 13: under 5 M md nodes). */
    static const int ids[] = {9, 12, 13};
    for (size_t i = 0; i < sizeof ids / sizeof ids[0]; i++) {
        np_board b;
        memset(&b, 0, sizeof b);
        b.rows = b.cols = 4;
        memcpy(b.tiles, korf[ids[i]].tiles, 16);
        for (int c = 0; c < 16; c++)
            if (!b.tiles[c])
                b.blank = (uint8_t)c;
        compare_kernels(&b, &g4, NP_H_MD, 0);
        compare_kernels(&b, &g4, NP_H_LC, 0);
        compare_kernels(&b, &g4, NP_H_LC, 1.5);
    }
    /* 5x5: boards 40 random moves from the goal (test's own generator). */
    uint64_t seed = 0x5eed5eedULL;
    for (int n = 0; n < 12; n++) {
        np_board b = walk5(40, &seed);
        compare_kernels(&b, &g5, NP_H_MD, 0);
        compare_kernels(&b, &g5, NP_H_LC, 0);
        compare_kernels(&b, &g5, NP_H_MD, 2.0);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        TIMED_TEST(test_labelled_geometry_refused),
        TIMED_TEST(test_oracle_profile),
        TIMED_TEST(test_heuristics_and_parity_all_boards),
        TIMED_TEST(test_ida_bad_arguments),
        TIMED_TEST(test_ida_hardest8),
        TIMED_TEST(test_ida_3x3_sample_md),
        TIMED_TEST(test_ida_3x3_sample_lc),
        TIMED_TEST(test_ida_small_boards),
        TIMED_TEST(test_ida_blank_last),
        TIMED_TEST(test_ida_weighted),
        TIMED_TEST(test_ida_weight_thousandths),
        TIMED_TEST(test_ida_unsolvable),
        TIMED_TEST(test_ida_node_limit),
        TIMED_TEST(test_ida_node_limit_threads),
        TIMED_TEST(test_ida_timeout),
        TIMED_TEST(test_ida_cancel_small),
        TIMED_TEST(test_batch_threads),
        TIMED_TEST(test_batch_few_boards),
        TIMED_TEST(test_ida_parallel_one_board),
        TIMED_TEST(test_ida_split_counts),
        TIMED_TEST(test_ida_split_limit),
        TIMED_TEST(test_ida_recut_at_stop),
        TIMED_TEST(test_ida_split_narrow),
        TIMED_TEST(test_ida_split_goal_near),
        TIMED_TEST(test_ida_runner),
        TIMED_TEST(test_ida_journal_running),
        TIMED_TEST(test_ida_runner_stop),
        TIMED_TEST(test_ida_fsm_optimal),
        TIMED_TEST(test_ida_korf100_easy),
        TIMED_TEST(test_solution_check),
        TIMED_TEST(test_ida_specialised_kernels),
        TIMED_TEST(test_ida_5x5_exact),
    };
    /* NPUZZLE_TEST_FILTER=pattern runs only the matching tests (while debugging). */
    const char *filter = getenv("NPUZZLE_TEST_FILTER");
    if (filter && *filter)
        cmocka_set_test_filter(filter);
    return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
