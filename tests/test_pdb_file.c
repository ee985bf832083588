/* test_pdb_file.c - pdb_file module: round trips in both encodings, every file fault refused by
 * name, interrupted writes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <dirent.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* The header-only build of xxHash: the test checks header checksums without linking libxxhash. */
#define XXH_INLINE_ALL
#include <xxhash.h>

#include "npuzzle/board.h"
#include "npuzzle/error.h"
#include "npuzzle/pdb_file.h"
#include "npuzzle/pdb_gen.h"
#include "npuzzle/pdbset.h"
#include "../src/pdb_stamp_internal.h" /* np__pdb_stamp_add_many */
#include "npuzzle/rank.h"

static char dir[256];
static char err[1024];

/* ---- helpers ------------------------------------------------------------ */

static uint64_t rng_state = 0x243f6a8885a308d3ull;

static uint32_t rng_next(void)
{
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return (uint32_t)((rng_state * 0x2545f4914f6cdd1dull) >> 32);
}

/* A cell's label by the definition in board.h (rows as a snake: even rows
 * left to right, odd rows right to left); PDB tables rank labels. Its own
 * inverse: it maps a label back to its cell. */
static int snake(int cols, int c)
{
    int r = c / cols, x = c % cols;
    return r * cols + (r % 2 ? cols - 1 - x : x);
}

/* Manhattan distance of the pattern in placement `index`, straight from
 * np_unrank (which gives labels). */
static int md_of(const np_ranker *r, const np_geom *g, const uint8_t *tiles, uint64_t index)
{
    uint8_t labels[NP_RANK_MAX_K];
    np_unrank(r, index, labels);
    int md = 0;
    for (int j = 0; j < r->k; j++)
        md += g->dist[snake(g->cols, labels[j])][g->home[tiles[j]]];
    return md;
}

/* A synthetic table whose entries fit the 4-bit encoding: md + 2 * (0..15). */
static uint8_t *table4(const np_geom *g, const uint8_t *tiles, int k, uint64_t *entries)
{
    np_ranker r;
    assert_int_equal(np_ranker_init(&r, g->cells, k), NP_OK);
    uint8_t *v = malloc(r.count);
    assert_non_null(v);
    for (uint64_t i = 0; i < r.count; i++)
        v[i] = (uint8_t)(md_of(&r, g, tiles, i) + 2 * (int)(rng_next() % 16));
    *entries = r.count;
    return v;
}

static void path_in(char *buf, size_t len, const char *name)
{
    snprintf(buf, len, "%s/%s", dir, name);
}

static bool exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

static void copy_file(const char *from, const char *to)
{
    FILE *in = fopen(from, "rb"), *out = fopen(to, "wb");
    assert_non_null(in);
    assert_non_null(out);
    char buf[65536];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, in)) > 0)
        assert_int_equal(fwrite(buf, 1, n, out), n);
    fclose(in);
    fclose(out);
}

static long file_size(const char *path)
{
    struct stat st;
    assert_int_equal(stat(path, &st), 0);
    return (long)st.st_size;
}

static void poke(const char *path, long off, const void *bytes, size_t n)
{
    FILE *f = fopen(path, "r+b");
    assert_non_null(f);
    assert_int_equal(fseek(f, off, SEEK_SET), 0);
    assert_int_equal(fwrite(bytes, 1, n, f), n);
    fclose(f);
}

static uint8_t peek(const char *path, long off)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    assert_int_equal(fseek(f, off, SEEK_SET), 0);
    int c = fgetc(f);
    fclose(f);
    assert_true(c >= 0);
    return (uint8_t)c;
}

static void flip(const char *path, long off)
{
    uint8_t b = peek(path, off) ^ 0x5a;
    poke(path, off, &b, 1);
}

/* Recompute the header's own checksum after editing it (a forged but consistent header). */
static void reseal(const char *path)
{
    uint8_t h[256];
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    assert_int_equal(fread(h, 1, 256, f), 256);
    fclose(f);
    uint64_t sum = XXH3_64bits(h, 248);
    uint8_t le[8];
    for (int i = 0; i < 8; i++)
        le[i] = (uint8_t)(sum >> (8 * i));
    poke(path, 248, le, 8);
}

/* Count files in the test directory whose name contains `part`. */
static int count_files(const char *part, char found[][512], int max)
{
    DIR *d = opendir(dir);
    assert_non_null(d);
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (strstr(e->d_name, part)) {
            if (found && n < max)
                snprintf(found[n], 512, "%s/%s", dir, e->d_name);
            n++;
        }
    }
    closedir(d);
    return n;
}

static void expect_open_fails(const char *path, const np_pdb_expect *ex, int code,
                              const char *needle)
{
    np_pdb *p = (np_pdb *)1;
    err[0] = '\0';
    int rc = np_pdb_open(&p, path, ex, err, sizeof err);
    if (rc != code || !strstr(err, path) || !strstr(err, needle))
        fail_msg("%s: rc %d (want %d), message '%s' (want the path and '%s')", path, rc, code, err,
                 needle);
    assert_null(p);
}

/* The reference file of the fault tests: 3x3, pattern 1,2,3,4, 8-bit. */
static const uint8_t ref_tiles[4] = {1, 2, 3, 4};
static char ref_path[512];

static int setup(void **state)
{
    (void)state;
    const char *tmp = getenv("TMPDIR");
    snprintf(dir, sizeof dir, "%s/test_pdb_file.XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(dir))
        return -1;
    np_geom g;
    np_geom_init(&g, 3, 3, NP_GOAL_BLANK_FIRST);
    uint64_t entries;
    uint8_t *v = table4(&g, ref_tiles, 4, &entries);
    path_in(ref_path, sizeof ref_path, "ref.pdb");
    np_pdb_write_opts o = {.encoding = NP_PDB_ENC_8BIT, .threads = 1};
    int rc = np_pdb_write(ref_path, &g, ref_tiles, 4, v, entries, &o, NULL, err, sizeof err);
    free(v);
    return rc == NP_OK ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    DIR *d = opendir(dir);
    if (d) {
        struct dirent *e;
        char p[600];
        while ((e = readdir(d)))
            if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
                snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
                unlink(p);
            }
        closedir(d);
    }
    rmdir(dir);
    return 0;
}

/* ---- round trips -------------------------------------------------------- */

/* Write `v` in 8-bit and 4-bit form and check both give v[i] at every index. */
static void round_trip(int rows, int cols, np_goal goal, const uint8_t *tiles, int k)
{
    np_geom g;
    assert_int_equal(np_geom_init(&g, rows, cols, goal), NP_OK);
    np_ranker r;
    assert_int_equal(np_ranker_init(&r, g.cells, k), NP_OK);
    uint64_t entries;
    uint8_t *v = table4(&g, tiles, k, &entries);

    char p8[600], p4[600], name[256];
    np_pdb_filename(name, sizeof name, &g, tiles, k);
    snprintf(p8, sizeof p8, "%s/8bit-%s", dir, name);
    snprintf(p4, sizeof p4, "%s/4bit-%s", dir, name);
    np_pdb_write_opts o8 = {.encoding = NP_PDB_ENC_8BIT, .threads = 2};
    np_pdb_write_opts oa = {.encoding = NP_PDB_ENC_AUTO, .threads = 2};
    np_pdb_write_info info;
    assert_int_equal(np_pdb_write(p8, &g, tiles, k, v, entries, &o8, &info, err, sizeof err),
                     NP_OK);
    assert_int_equal(info.encoding, NP_PDB_ENC_8BIT);
    assert_int_equal(info.file_bytes, 4096 + entries);
    assert_int_equal(file_size(p8), 4096 + (long)entries);
    assert_int_equal(np_pdb_write(p4, &g, tiles, k, v, entries, &oa, &info, err, sizeof err),
                     NP_OK);
    assert_int_equal(info.encoding, NP_PDB_ENC_4BIT); /* chosen automatically */
    assert_int_equal(file_size(p4), 4096 + (long)((entries + 1) / 2));

    uint8_t want_tiles[NP_MAX_CELLS];
    memcpy(want_tiles, tiles, (size_t)k);
    np_pdb_expect ex = {rows, cols, (int)goal, k, want_tiles, 0};
    np_pdb *a, *b;
    assert_int_equal(np_pdb_open(&a, p8, &ex, err, sizeof err), NP_OK);
    assert_int_equal(np_pdb_open(&b, p4, &ex, err, sizeof err), NP_OK);
    assert_int_equal(np_pdb_encoding(a), NP_PDB_ENC_8BIT);
    assert_int_equal(np_pdb_encoding(b), NP_PDB_ENC_4BIT);
    assert_int_equal(np_pdb_entries(a), entries);
    assert_int_equal(np_pdb_entries(b), entries);
    assert_int_equal(np_pdb_ntiles(b), k);
    assert_memory_equal(np_pdb_tiles(b), tiles, (size_t)k);
    assert_string_equal(np_pdb_path(b), p4);
    const np_pdb_header *h = np_pdb_get_header(b);
    assert_int_equal(h->rows, rows);
    assert_int_equal(h->cols, cols);
    assert_int_equal(h->goal, goal);
    assert_int_equal(h->payload_offset % 4096, 0);
    assert_non_null(strstr(h->generator, "npuzzle"));
    np_pdb_view va = np_pdb_get_view(a), vb = np_pdb_get_view(b);
    int maxv = 0;
    for (uint64_t i = 0; i < entries; i++) {
        int md = md_of(&r, &g, tiles, i);
        int x = np_pdb_view_value(&va, i, md), y = np_pdb_view_value(&vb, i, md);
        if (x != v[i] || y != v[i])
            fail_msg("entry %llu: wrote %d, read %d (8-bit) and %d (4-bit)", (unsigned long long)i,
                     v[i], x, y);
        if (v[i] > maxv)
            maxv = v[i];
    }
    assert_int_equal(h->max_value, maxv);

    /* histograms agree with a direct count, for both encodings */
    static uint64_t want[256], got[256];
    memset(want, 0, sizeof want);
    for (uint64_t i = 0; i < entries; i++)
        want[v[i]]++;
    assert_int_equal(np_pdb_histogram(a, &g, got, 2), NP_OK);
    assert_memory_equal(got, want, sizeof want);
    assert_int_equal(np_pdb_histogram(b, &g, got, 1), NP_OK);
    assert_memory_equal(got, want, sizeof want);

    np_pdb_close(a);
    np_pdb_close(b);
    unlink(p8);
    unlink(p4);
    free(v);
}

/* A labelled geometry (board.h) is refused by every function that labels
 * it, never labelled twice: writing leaves no file, the histogram and the
 * generator answer NP_EINVAL; the row-major one still works. */
static void test_labelled_geometry_refused(void **state)
{
    (void)state;
    np_geom g, lg;
    assert_int_equal(np_geom_init(&g, 3, 3, NP_GOAL_BLANK_FIRST), NP_OK);
    assert_int_equal(np_geom_labelled(&g, &lg), NP_OK);
    assert_true(lg.numbering == NP_CELLS_LABELLED);
    uint64_t entries;
    uint8_t *v = table4(&g, ref_tiles, 4, &entries);
    char path[512];
    path_in(path, sizeof path, "labelled.pdb");
    assert_true(np_pdb_write(path, &lg, ref_tiles, 4, v, entries, NULL, NULL, err, sizeof err) ==
                NP_EINVAL);
    assert_non_null(strstr(err, "labelled"));
    assert_false(exists(path));
    char found[4][512];
    assert_int_equal(count_files("labelled", found, 4), 0);
    free(v);

    np_pdb *pdb = NULL;
    assert_int_equal(np_pdb_open(&pdb, ref_path, NULL, err, sizeof err), NP_OK);
    uint64_t hist[256];
    assert_true(np_pdb_histogram(pdb, &lg, hist, 1) == NP_EINVAL);
    assert_int_equal(np_pdb_histogram(pdb, &g, hist, 1), NP_OK);
    np_pdb_close(pdb);

    uint8_t *values = NULL;
    np_pdb_gen_estimate est;
    assert_true(np_pdb_gen_estimate_for(&est, &lg, ref_tiles, 4) == NP_EINVAL);
    assert_true(np_pdb_generate(&values, &entries, &lg, ref_tiles, 4, NULL) == NP_EINVAL);
    assert_null(values);
}

static void test_round_trip_3x3(void **state)
{
    (void)state;
    round_trip(3, 3, NP_GOAL_BLANK_FIRST, (const uint8_t[]){1, 2, 3, 4}, 4);
    round_trip(3, 3, NP_GOAL_BLANK_LAST, (const uint8_t[]){8, 5, 6, 7}, 4);
    round_trip(3, 3, NP_GOAL_BLANK_FIRST, (const uint8_t[]){5}, 1); /* odd entry count */
}

/* Several 64K-entry blocks and pattern orders that are not ascending. */
static void test_round_trip_larger(void **state)
{
    (void)state;
    round_trip(5, 5, NP_GOAL_BLANK_FIRST, (const uint8_t[]){7, 2, 12, 5}, 4); /* 303,600 entries */
    round_trip(3, 4, NP_GOAL_BLANK_LAST, (const uint8_t[]){11, 1, 6, 3, 9}, 5);
    round_trip(2, 5, NP_GOAL_BLANK_FIRST, (const uint8_t[]){9, 8, 1, 2, 3, 4, 5}, 7); /* 604,800 */
}

static void test_encoding_choice(void **state)
{
    (void)state;
    np_geom g;
    np_geom_init(&g, 3, 3, NP_GOAL_BLANK_FIRST);
    const uint8_t tiles[3] = {1, 2, 3};
    uint64_t entries;
    uint8_t *v = table4(&g, tiles, 3, &entries);
    char p[512];
    path_in(p, sizeof p, "enc.pdb");
    np_pdb_write_info info;
    np_pdb_write_opts a = {0}, f4 = {.encoding = NP_PDB_ENC_4BIT};

    /* a value of the wrong parity: automatic falls back to 8-bit, forced 4-bit refuses */
    v[100] ^= 1;
    assert_int_equal(np_pdb_write(p, &g, tiles, 3, v, entries, &a, &info, err, sizeof err), NP_OK);
    assert_int_equal(info.encoding, NP_PDB_ENC_8BIT);
    assert_true(np_pdb_write(p, &g, tiles, 3, v, entries, &f4, &info, err, sizeof err) ==
                NP_EINVAL);
    assert_non_null(strstr(err, "entry 100"));
    v[100] ^= 1;
    /* a value too far above md for a nibble */
    np_ranker r;
    np_ranker_init(&r, 9, 3);
    v[7] = (uint8_t)(md_of(&r, &g, tiles, 7) + 32);
    assert_int_equal(np_pdb_write(p, &g, tiles, 3, v, entries, NULL, &info, err, sizeof err),
                     NP_OK);
    assert_int_equal(info.encoding, NP_PDB_ENC_8BIT);
    /* below md */
    v[7] = 0;
    if (md_of(&r, &g, tiles, 7) > 0) {
        assert_true(np_pdb_write(p, &g, tiles, 3, v, entries, &f4, NULL, err, sizeof err) ==
                    NP_EINVAL);
    }
    /* wrong entry count, bad tiles */
    assert_true(np_pdb_write(p, &g, tiles, 3, v, entries - 1, NULL, NULL, err, sizeof err) ==
                NP_EINVAL);
    assert_true(np_pdb_write(p, &g, (const uint8_t[]){1, 1, 2}, 3, v, entries, NULL, NULL, err,
                             sizeof err) == NP_EINVAL);
    assert_true(np_pdb_write(p, &g, (const uint8_t[]){0, 1, 2}, 3, v, entries, NULL, NULL, err,
                             sizeof err) == NP_EINVAL);
    unlink(p);
    free(v);
    assert_int_equal(count_files(".tmp.", NULL, 0), 0);
}

static void test_filename(void **state)
{
    (void)state;
    np_geom g;
    char buf[128];
    np_geom_init(&g, 4, 4, NP_GOAL_BLANK_FIRST);
    assert_int_equal(
        np_pdb_filename(buf, sizeof buf, &g, (const uint8_t[]){1, 2, 3, 4, 5, 6, 7}, 7), 24);
    assert_string_equal(buf, "4x4-bf-1.2.3.4.5.6.7.pdb");
    np_geom_init(&g, 3, 5, NP_GOAL_BLANK_LAST);
    np_pdb_filename(buf, sizeof buf, &g, (const uint8_t[]){12, 3}, 2);
    assert_string_equal(buf, "3x5-bl-12.3.pdb");
    assert_int_equal(np_pdb_filename(buf, 5, &g, (const uint8_t[]){12, 3}, 2), 15);
    assert_string_equal(buf, "3x5-");
}

/* ---- faults ------------------------------------------------------------- */

static void fault_copy(char *p, size_t len, const char *name)
{
    snprintf(p, len, "%s/%s", dir, name);
    copy_file(ref_path, p);
}

static void test_reference_opens(void **state)
{
    (void)state;
    np_pdb *p;
    np_pdb_expect ex = {3, 3, NP_GOAL_BLANK_FIRST, 4, ref_tiles, 0};
    assert_int_equal(np_pdb_open(&p, ref_path, &ex, err, sizeof err), NP_OK);
    np_pdb_close(p);
    assert_int_equal(np_pdb_open(&p, ref_path, NULL, err, sizeof err), NP_OK);
    assert_int_equal(np_pdb_entries(p), 3024);
    np_pdb_close(p);
    np_pdb_header h;
    assert_int_equal(np_pdb_read_header(&h, ref_path, err, sizeof err), NP_OK);
    assert_int_equal(h.entries, 3024);
    assert_int_equal(h.version, NP_PDB_FORMAT_VERSION);
    np_pdb_close(NULL);
}

static void test_fault_missing(void **state)
{
    (void)state;
    char p[512];
    path_in(p, sizeof p, "nothing-here.pdb");
    expect_open_fails(p, NULL, NP_ENOTFOUND, "not found");
}

/* np_pdbset_find_missing finds each table where np_pdbset_open looks for it
 * (the .pdb, else its .pdb.zst) and names the first missing one as the open
 * does; it reads nothing. */
static void build_table(const np_geom *g, const np_pattern *pat, bool packed)
{
    char name[256], p[1024];
    np_pdb_filename(name, sizeof name, g, pat->tiles, pat->ntiles);
    path_in(p, sizeof p, name);
    uint8_t *v;
    uint64_t entries;
    np_pdb_gen_opts go = {.threads = 1};
    assert_int_equal(np_pdb_generate(&v, &entries, g, pat->tiles, pat->ntiles, &go), NP_OK);
    np_pdb_write_opts wo = {.threads = 1};
    assert_int_equal(
        np_pdb_write(p, g, pat->tiles, pat->ntiles, v, entries, &wo, NULL, err, sizeof err), NP_OK);
    free(v);
    if (packed) {
        char z[1040];
        snprintf(z, sizeof z, "%s.zst", p);
        assert_int_equal(np_pdb_compress(p, z, 1, 1, NULL, err, sizeof err), NP_OK);
        unlink(p);
    }
}

static void test_find_missing(void **state)
{
    (void)state;
    np_geom g;
    np_geom_init(&g, 3, 3, NP_GOAL_BLANK_FIRST);
    np_partition part;
    assert_int_equal(np_partition_parse(&part, "1,2,3,4/5,6,7,8", 3, 3, true, err, sizeof err),
                     NP_OK);
    char name[2][256], want[2][1024], missing[1024];
    for (int p = 0; p < 2; p++) {
        np_pdb_filename(name[p], sizeof name[p], &g, part.patterns[p].tiles,
                        part.patterns[p].ntiles);
        path_in(want[p], sizeof want[p], name[p]);
    }
    np_pdbset *set = (np_pdbset *)1;

    /* none there: the first pattern's, as the open says */
    assert_int_equal(
        np_pdbset_find_missing(&g, &part, dir, 0, missing, sizeof missing, err, sizeof err),
        NP_ENOTFOUND);
    assert_string_equal(missing, want[0]);
    assert_non_null(strstr(err, want[0]));
    assert_int_equal(np_pdbset_open(&set, &g, &part, dir, 0, err, sizeof err), NP_ENOTFOUND);
    assert_non_null(strstr(err, want[0]));

    /* the first there, the second not */
    build_table(&g, &part.patterns[0], false);
    assert_int_equal(
        np_pdbset_find_missing(&g, &part, dir, 0, missing, sizeof missing, err, sizeof err),
        NP_ENOTFOUND);
    assert_string_equal(missing, want[1]);
    assert_int_equal(np_pdbset_open(&set, &g, &part, dir, 0, err, sizeof err), NP_ENOTFOUND);
    assert_non_null(strstr(err, want[1]));
    /* without a place for the path or the message */
    assert_int_equal(np_pdbset_find_missing(&g, &part, dir, 0, NULL, 0, NULL, 0), NP_ENOTFOUND);

    /* the second only packed: found, and the open unpacks it */
    build_table(&g, &part.patterns[1], true);
    assert_false(exists(want[1]));
    assert_int_equal(
        np_pdbset_find_missing(&g, &part, dir, 0, missing, sizeof missing, err, sizeof err), NP_OK);
    assert_string_equal(missing, "");
    assert_false(exists(want[1])); /* looked at only */
    assert_int_equal(np_pdbset_open(&set, &g, &part, dir, 0, err, sizeof err), NP_OK);
    assert_true(exists(want[1]));
    np_pdbset_close(set);

    /* the zero-aware names are others */
    assert_int_equal(np_pdbset_find_missing(&g, &part, dir, NP_PDBSET_ZERO_AWARE, missing,
                                            sizeof missing, err, sizeof err),
                     NP_ENOTFOUND);
    char za[256];
    np_pdb_filename_za(za, sizeof za, &g, part.patterns[0].tiles, part.patterns[0].ntiles);
    assert_non_null(strstr(missing, za));

    /* a directory that cannot be searched: its table named, the reason given */
    char under[1100];
    snprintf(under, sizeof under, "%s/sub", ref_path); /* ref.pdb is a regular file */
    assert_int_equal(
        np_pdbset_find_missing(&g, &part, under, 0, missing, sizeof missing, err, sizeof err),
        NP_EIO);
    assert_non_null(strstr(missing, under));
    assert_non_null(strstr(err, "Not a directory"));

    /* refused before any look, as the open refuses them */
    np_partition half;
    assert_int_equal(np_partition_parse(&half, "1,2,3,4", 3, 3, false, err, sizeof err), NP_OK);
    assert_int_equal(
        np_pdbset_find_missing(&g, &half, dir, 0, missing, sizeof missing, err, sizeof err),
        NP_EINVAL);
    assert_int_equal(np_pdbset_find_missing(&g, &part, NULL, 0, NULL, 0, err, sizeof err),
                     NP_EINVAL);
    assert_int_equal(np_pdbset_find_missing(&g, &part, dir, 1u << 20, NULL, 0, err, sizeof err),
                     NP_EINVAL);
    for (int p = 0; p < 2; p++)
        unlink(want[p]);
    snprintf(under, sizeof under, "%s.zst", want[1]);
    unlink(under);
}

/* A NULL path sets *out to NULL too (a reused handle variable is not left
 * dangling), and a path too long for the system is NP_EINVAL, as for the
 * writers, not an I/O error. */
static void test_open_bad_paths(void **state)
{
    (void)state;
    np_pdb *p = (np_pdb *)1;
    assert_int_equal(np_pdb_open(&p, NULL, NULL, err, sizeof err), NP_EINVAL);
    assert_null(p);
    static char longp[6000];
    int n = snprintf(longp, sizeof longp, "/tmp/");
    memset(longp + n, 'a', sizeof longp - (size_t)n - 1);
    longp[sizeof longp - 1] = '\0';
    p = (np_pdb *)1;
    assert_int_equal(np_pdb_open(&p, longp, NULL, err, sizeof err), NP_EINVAL);
    assert_null(p);
    assert_non_null(strstr(err, "/tmp/aaaa")); /* (the message holds the path's start) */
    /* one name longer than a directory entry may be */
    snprintf(longp, sizeof longp, "/tmp/%0300d.pdb", 7);
    expect_open_fails(longp, NULL, NP_EINVAL, "path too long");
}

static void test_fault_truncated_header(void **state)
{
    (void)state;
    char p[512];
    fault_copy(p, sizeof p, "trunc-header.pdb");
    assert_int_equal(truncate(p, 100), 0);
    expect_open_fails(p, NULL, NP_ETRUNCATED, "truncated header");
    assert_int_equal(truncate(p, 0), 0);
    expect_open_fails(p, NULL, NP_ETRUNCATED, "truncated header");
    fault_copy(p, sizeof p, "trunc-header.pdb");
    assert_int_equal(truncate(p, 4), 0); /* a prefix of the magic */
    expect_open_fails(p, NULL, NP_ETRUNCATED, "truncated header");
    np_pdb_header h;
    assert_true(np_pdb_read_header(&h, p, err, sizeof err) == NP_ETRUNCATED);
}

static void test_fault_truncated_payload(void **state)
{
    (void)state;
    char p[512];
    fault_copy(p, sizeof p, "trunc-payload.pdb");
    assert_int_equal(truncate(p, 4096 + 1000), 0);
    expect_open_fails(p, NULL, NP_ETRUNCATED, "truncated payload");
    assert_int_equal(truncate(p, 256), 0); /* header only */
    expect_open_fails(p, NULL, NP_ETRUNCATED, "truncated payload");
    /* and too long */
    fault_copy(p, sizeof p, "too-long.pdb");
    FILE *f = fopen(p, "ab");
    fputc(0, f);
    fclose(f);
    expect_open_fails(p, NULL, NP_EFORMAT, "stray bytes");
}

static void test_fault_flipped_payload(void **state)
{
    (void)state;
    char p[512];
    fault_copy(p, sizeof p, "flipped.pdb");
    flip(p, 4096 + 1234);
    expect_open_fails(p, NULL, NP_ECHECKSUM, "checksum");
    /* without verification it opens, and np_pdb_verify names the fault */
    np_pdb *pdb;
    assert_int_equal(np_pdb_open_ex(&pdb, p, NULL, NP_PDB_OPEN_NOVERIFY, err, sizeof err), NP_OK);
    assert_true(np_pdb_verify(pdb, err, sizeof err) == NP_ECHECKSUM);
    assert_non_null(strstr(err, p));
    np_pdb_close(pdb);
}

static void test_fault_flipped_header(void **state)
{
    (void)state;
    char p[512];
    fault_copy(p, sizeof p, "flipped-header.pdb");
    flip(p, 17); /* cols */
    expect_open_fails(p, NULL, NP_ECHECKSUM, "header checksum");
}

static void test_fault_magic(void **state)
{
    (void)state;
    char p[512];
    fault_copy(p, sizeof p, "magic.pdb");
    poke(p, 0, "XPUZPDB", 7);
    expect_open_fails(p, NULL, NP_EFORMAT, "bad magic");
    /* a text file */
    FILE *f = fopen(p, "w");
    fputs("hello, world\n", f);
    fclose(f);
    expect_open_fails(p, NULL, NP_EFORMAT, "bad magic");
}

static void test_fault_other_board(void **state)
{
    (void)state;
    np_pdb_expect ex = {4, 4, NP_GOAL_BLANK_FIRST, 4, ref_tiles, 0};
    expect_open_fails(ref_path, &ex, NP_EMISMATCH, "is for a 3x3 board, expected 4x4");
    np_pdb_expect goal = {3, 3, NP_GOAL_BLANK_LAST, 0, NULL, 0};
    expect_open_fails(ref_path, &goal, NP_EMISMATCH, "blank-first goal");
}

static void test_fault_other_pattern(void **state)
{
    (void)state;
    const uint8_t other[4] = {5, 6, 7, 8};
    np_pdb_expect ex = {3, 3, NP_GOAL_BLANK_FIRST, 4, other, 0};
    expect_open_fails(ref_path, &ex, NP_EMISMATCH, "is for pattern 1,2,3,4, expected 5,6,7,8");
    const uint8_t order[4] = {2, 1, 3, 4};
    np_pdb_expect ex2 = {0, 0, -1, 4, order, 0};
    expect_open_fails(ref_path, &ex2, NP_EMISMATCH, "expected 2,1,3,4");
    np_pdb_expect ex3 = {0, 0, -1, 3, ref_tiles, 0};
    expect_open_fails(ref_path, &ex3, NP_EMISMATCH, "expected 1,2,3");
}

static void test_fault_future_version(void **state)
{
    (void)state;
    char p[512];
    fault_copy(p, sizeof p, "future.pdb");
    const uint8_t vnext[4] = {(uint8_t)(NP_PDB_FORMAT_VERSION + 1), 0, 0, 0};
    poke(p, 8, vnext, 4);
    /* unsealed: a flipped byte as much as a newer file, and both are said */
    expect_open_fails(p, NULL, NP_EVERSION, "newer");
    expect_open_fails(p, NULL, NP_EVERSION, "or damaged (this version's header checksum");
    /* sealed with this version's checksum: a newer file, nothing else said */
    reseal(p);
    expect_open_fails(p, NULL, NP_EVERSION, "newer");
    assert_null(strstr(err, "damaged"));
    /* Versions 1 and 2 held the entries in other orders: refused, even when
     * their header is intact, with the way out. */
    for (uint8_t old = 1; old < NP_PDB_FORMAT_VERSION; old++) {
        const uint8_t vold[4] = {old, 0, 0, 0};
        poke(p, 8, vold, 4);
        reseal(p);
        expect_open_fails(p, NULL, NP_EVERSION, "npuzzle gen");
    }
    const uint8_t v0[4] = {0, 0, 0, 0};
    poke(p, 8, v0, 4);
    reseal(p);
    expect_open_fails(p, NULL, NP_EFORMAT, "version");
}

/* Forged headers (checksum recomputed) with random field bytes: never a crash,
 * and a file is accepted only when every byte that changed lies in a field
 * whose every value the format allows (pdb_file.h): the goal, the tiles, the
 * max value, the generator, the goal region. Any other change (the magic,
 * sizes, counts, checksums, zero padding, reserved bytes) is refused. */
static bool forgeable_offset(long off, int ntiles)
{
    return off == 18 || (off >= 24 && off < 24 + ntiles) || off == 120 ||
        (off >= 128 && off < 160) || off == 160;
}

static void test_fault_forged_headers(void **state)
{
    (void)state;
    char p[512];
    int accepted = 0, refused = 0;
    FILE *rf = fopen(ref_path, "rb");
    assert_non_null(rf);
    uint8_t ref[256];
    assert_int_equal(fread(ref, 1, sizeof ref, rf), sizeof ref);
    fclose(rf);
    const int ntiles = ref[20];
    for (int iter = 0; iter < 1000; iter++) {
        fault_copy(p, sizeof p, "forged.pdb");
        int nflips = 1 + (int)(rng_next() % 3);
        long changed[3];
        int nchanged = 0;
        for (int j = 0; j < nflips; j++) {
            long off = 12 + (long)(rng_next() % 236);
            uint8_t b = (uint8_t)rng_next();
            poke(p, off, &b, 1);
            if (b != ref[off])
                changed[nchanged++] = off;
            else
                for (int k = 0; k < nchanged; k++) /* set back to the original */
                    if (changed[k] == off)
                        changed[k--] = changed[--nchanged];
        }
        bool forgeable = true;
        for (int k = 0; k < nchanged; k++)
            forgeable = forgeable && forgeable_offset(changed[k], ntiles);
        reseal(p);
        np_pdb *pdb = NULL;
        int rc = np_pdb_open(&pdb, p, NULL, err, sizeof err);
        if (rc == NP_OK) {
            accepted++;
            if (!forgeable)
                fail_msg("a header with byte %ld (of %d changed) forged was accepted", changed[0],
                         nchanged);
            np_geom g;
            const np_pdb_header *h = np_pdb_get_header(pdb);
            assert_int_equal(np_geom_init(&g, h->rows, h->cols, h->goal), NP_OK);
            uint64_t hist[256];
            assert_int_equal(np_pdb_histogram(pdb, &g, hist, 1), NP_OK);
            np_pdb_close(pdb);
        } else {
            refused++;
            assert_null(pdb);
            assert_non_null(strstr(err, p));
        }
    }
    print_message("  forged headers: %d accepted, %d refused\n", accepted, refused);
    assert_true(accepted > 0 && refused > 0);
}

/* The generator field is printable text then NULs: a control byte in it, or
 * text after its end, is refused even under a consistent header checksum. */
static void test_fault_generator(void **state)
{
    (void)state;
    static const struct {
        long off;
        uint8_t byte;
    } cases[] = {{128, 0x1b}, {130, '\n'}, {140, 0x7f}, {158, 'x'}, {159, 0x80}};
    char p[512];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        fault_copy(p, sizeof p, "generator.pdb");
        poke(p, cases[i].off, &cases[i].byte, 1);
        reseal(p);
        expect_open_fails(p, NULL, NP_EFORMAT, "generator byte");
    }
    /* a printable byte within the text is no damage: the header reads */
    fault_copy(p, sizeof p, "generator.pdb");
    uint8_t c = 'Z';
    poke(p, 128, &c, 1);
    reseal(p);
    np_pdb *pdb = NULL;
    assert_int_equal(np_pdb_open(&pdb, p, NULL, err, sizeof err), NP_OK);
    assert_int_equal(np_pdb_get_header(pdb)->generator[0], 'Z');
    np_pdb_close(pdb);
}

/* Exit status of `npuzzle info PATH` (the binary of $NPUZZLE_BIN), its
 * standard error in errbuf; -1 when the test environment names no binary. */
static int run_info(const char *path, char *errbuf, size_t len)
{
    const char *bin = getenv("NPUZZLE_BIN");
    if (!bin || !*bin)
        return -1;
    char errpath[600], cmd[2048];
    snprintf(errpath, sizeof errpath, "%s/info.err", dir);
    snprintf(cmd, sizeof cmd, "'%s' info '%s' >/dev/null 2>'%s'", bin, path, errpath);
    int st = system(cmd);
    FILE *f = fopen(errpath, "r");
    assert_non_null(f);
    size_t n = fread(errbuf, 1, len - 1, f);
    errbuf[n] = '\0';
    fclose(f);
    assert_true(WIFEXITED(st));
    return WEXITSTATUS(st);
}

/* `npuzzle info` holds the header's max value to the values themselves: a
 * header forged with another (and resealed) is refused by name, exit 3. */
static void test_info_max_value(void **state)
{
    (void)state;
    char p[512], e[4096];
    fault_copy(p, sizeof p, "maxvalue.pdb");
    int rc = run_info(p, e, sizeof e);
    if (rc < 0)
        skip();
    assert_int_equal(rc, 0);
    const uint8_t m = peek(p, 120);
    for (int delta = -1; delta <= 1; delta += 2) {
        uint8_t forged = (uint8_t)(m + delta);
        fault_copy(p, sizeof p, "maxvalue.pdb");
        poke(p, 120, &forged, 1);
        reseal(p);
        assert_int_equal(run_info(p, e, sizeof e), 3);
        assert_non_null(strstr(e, p));
        assert_non_null(strstr(e, "max value"));
    }
}

/* ---- zstd ------------------------------------------------------------------ */

/* A compression cancelled (the flag a signal sets) stops with NP_EINTR, leaves
 * no temporary file and leaves the .zst there as it was. */
static void test_zst_cancel(void **state)
{
    (void)state;
    char p[512], z[520];
    fault_copy(p, sizeof p, "cancel.pdb");
    snprintf(z, sizeof z, "%s.zst", p);
    volatile int cancel = 1;
    assert_int_equal(np_pdb_compress_cancel(p, z, 3, 1, &cancel, NULL, err, sizeof err), NP_EINTR);
    assert_false(exists(z));
    assert_int_equal(count_files(".tmp.", NULL, 0), 0);
    cancel = 0;
    uint64_t zbytes = 0;
    assert_int_equal(np_pdb_compress_cancel(p, z, 3, 1, &cancel, &zbytes, err, sizeof err), NP_OK);
    assert_true(zbytes > 0 && (long)zbytes == file_size(z));
    cancel = 1; /* over an existing .zst: it stays */
    assert_int_equal(np_pdb_compress_cancel(p, z, 3, 1, &cancel, NULL, err, sizeof err), NP_EINTR);
    assert_true((long)zbytes == file_size(z));
    assert_int_equal(count_files(".tmp.", NULL, 0), 0);
}

static void test_zst_round_trip(void **state)
{
    (void)state;
    char p[512], z[520];
    fault_copy(p, sizeof p, "packed.pdb");
    snprintf(z, sizeof z, "%s.zst", p);
    uint64_t zbytes = 0;
    assert_int_equal(np_pdb_compress(p, z, 3, 2, &zbytes, err, sizeof err), NP_OK);
    assert_true(zbytes > 0 && (long)zbytes == file_size(z));
    unlink(p);
    np_pdb *pdb;
    np_pdb_expect ex = {3, 3, NP_GOAL_BLANK_FIRST, 4, ref_tiles, 0};
    assert_int_equal(np_pdb_open(&pdb, p, &ex, err, sizeof err), NP_OK);
    assert_string_equal(np_pdb_path(pdb), p);
    assert_true(exists(p)); /* unpacked once, next to it */
    np_pdb *ref;
    assert_int_equal(np_pdb_open(&ref, ref_path, &ex, err, sizeof err), NP_OK);
    assert_memory_equal(np_pdb_payload(pdb), np_pdb_payload(ref), 3024);
    np_pdb_close(ref);
    np_pdb_close(pdb);
    assert_int_equal(count_files(".tmp.", NULL, 0), 0);

    /* np_pdb_decompress on its own */
    char q[512];
    path_in(q, sizeof q, "unpacked.pdb");
    assert_int_equal(np_pdb_decompress(z, q, err, sizeof err), NP_OK);
    assert_int_equal(file_size(q), file_size(ref_path));

    /* np_pdb_zst_compare: the same bytes, then one byte or the length off */
    assert_int_equal(np_pdb_zst_compare(z, q, err, sizeof err), NP_OK);
    assert_int_equal(np_pdb_zst_compare(z, ref_path, err, sizeof err), NP_OK);
    flip(q, 3000);
    int rc = np_pdb_zst_compare(z, q, err, sizeof err);
    if (rc != NP_EMISMATCH || !strstr(err, q) || !strstr(err, z))
        fail_msg("a byte off: rc %d, '%s'", rc, err);
    flip(q, 3000);
    FILE *f = fopen(q, "ab");
    assert_non_null(f);
    fputc(0, f);
    fclose(f);
    rc = np_pdb_zst_compare(z, q, err, sizeof err);
    if (rc != NP_EMISMATCH || !strstr(err, "bytes"))
        fail_msg("a byte longer: rc %d, '%s'", rc, err);
    assert_int_equal(truncate(q, file_size(ref_path) - 1), 0);
    assert_int_equal(np_pdb_zst_compare(z, q, err, sizeof err), NP_EMISMATCH);
    assert_int_equal(count_files(".tmp.", NULL, 0), 0);
    unlink(q);
    unlink(p);
    unlink(z);
}

static void test_zst_damaged(void **state)
{
    (void)state;
    char p[512], z[520];
    fault_copy(p, sizeof p, "damaged.pdb");
    snprintf(z, sizeof z, "%s.zst", p);
    assert_int_equal(np_pdb_compress(p, z, 19, 1, NULL, err, sizeof err), NP_OK);
    unlink(p);
    long zs = file_size(z);

    flip(z, zs / 2);
    np_pdb *pdb = NULL;
    int rc = np_pdb_open(&pdb, p, NULL, err, sizeof err);
    if (rc != NP_ECHECKSUM || !strstr(err, z))
        fail_msg("damaged frame: rc %d, '%s'", rc, err);
    assert_null(pdb);
    assert_false(exists(p));
    assert_int_equal(count_files(".tmp.", NULL, 0), 0);
    flip(z, zs / 2);

    /* the frame checksum itself (last 4 bytes) */
    flip(z, zs - 2);
    assert_true(np_pdb_open(&pdb, p, NULL, err, sizeof err) == NP_ECHECKSUM);
    assert_false(exists(p));
    flip(z, zs - 2);

    /* truncated frame */
    assert_int_equal(truncate(z, zs - 10), 0);
    rc = np_pdb_open(&pdb, p, NULL, err, sizeof err);
    if (rc != NP_ETRUNCATED || !strstr(err, z))
        fail_msg("truncated frame: rc %d, '%s'", rc, err);
    assert_false(exists(p));

    /* not zstd at all */
    poke(z, 0, "junk", 4);
    assert_true(np_pdb_open(&pdb, p, NULL, err, sizeof err) != NP_OK);
    assert_non_null(strstr(err, z));
    assert_false(exists(p));
    assert_true(np_pdb_decompress(z, p, err, sizeof err) != NP_OK);
    assert_false(exists(p));
    assert_int_equal(count_files(".tmp.", NULL, 0), 0);
    unlink(z);
}

/* Several processes unpack the same .zst at once: all succeed, one file results. */
static void test_zst_race(void **state)
{
    (void)state;
    char p[512], z[520];
    fault_copy(p, sizeof p, "race.pdb");
    snprintf(z, sizeof z, "%s.zst", p);
    assert_int_equal(np_pdb_compress(p, z, 1, 1, NULL, err, sizeof err), NP_OK);
    unlink(p);
    pid_t kids[4];
    for (int i = 0; i < 4; i++) {
        kids[i] = fork();
        assert_true(kids[i] >= 0);
        if (kids[i] == 0) {
            np_pdb *pdb;
            char e[512];
            int rc = np_pdb_open(&pdb, p, NULL, e, sizeof e);
            if (rc == NP_OK)
                np_pdb_close(pdb);
            _exit(rc == NP_OK ? 0 : 1);
        }
    }
    for (int i = 0; i < 4; i++) {
        int st;
        assert_int_equal(waitpid(kids[i], &st, 0), kids[i]);
        assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    }
    np_pdb *pdb;
    assert_int_equal(np_pdb_open(&pdb, p, NULL, err, sizeof err), NP_OK);
    np_pdb_close(pdb);
    assert_int_equal(count_files(".tmp.", NULL, 0), 0);
    unlink(p);
    unlink(z);
}

/* ---- interrupted writes ------------------------------------------------- */

static int progress_fd = -1;

static void stall_after_first_chunk(void *ctx, uint64_t done, uint64_t total)
{
    (void)ctx;
    (void)total;
    char c = 'x';
    if (done > 0 && write(progress_fd, &c, 1) == 1)
        for (;;)
            pause(); /* wait for SIGKILL mid-write */
}

/* A child starts writing a file of several chunks and is killed with SIGKILL
 * after the first: nothing that loads is left, at the final name or elsewhere. */
static void interrupted(const char *name, int encoding, bool compress)
{
    char p[512], z[520];
    path_in(p, sizeof p, name);
    snprintf(z, sizeof z, "%s.zst", p);
    int fds[2];
    assert_int_equal(pipe(fds), 0);
    pid_t kid = fork();
    assert_true(kid >= 0);
    if (kid == 0) {
        close(fds[0]);
        progress_fd = fds[1];
        np_geom g;
        np_geom_init(&g, 5, 5, NP_GOAL_BLANK_FIRST);
        const uint8_t tiles[5] = {1, 2, 3, 4, 5};
        uint64_t entries = 25ull * 24 * 23 * 22 * 21; /* 6.4 M: two 4 MiB chunks in 8-bit */
        uint8_t *v = malloc(entries);
        if (!v)
            _exit(2);
        if (compress) {
            /* values that compress slowly at level 19 (seconds): the kill
             * lands while the .zst is being written */
            uint64_t x = 88172645463325252ull;
            for (uint64_t i = 0; i < entries; i++) {
                x ^= x << 13, x ^= x >> 7, x ^= x << 17;
                v[i] = (uint8_t)(x % 15);
            }
        } else {
            memset(v, 40, entries);
        }
        np_pdb_write_opts o = {.encoding = encoding, .threads = 1};
        char e[512];
        if (compress) {
            /* the .pdb completes; the .zst is cut short instead */
            o.progress = NULL;
            if (np_pdb_write(p, &g, tiles, 5, v, entries, &o, NULL, e, sizeof e) != NP_OK)
                _exit(3);
            char c = 'x';
            if (write(progress_fd, &c, 1) != 1)
                _exit(4);
            np_pdb_compress(p, z, 19, 1, NULL, e, sizeof e);
            _exit(0);
        }
        o.progress = stall_after_first_chunk;
        np_pdb_write(p, &g, tiles, 5, v, entries, &o, NULL, e, sizeof e);
        _exit(5); /* should not get here: killed first */
    }
    close(fds[1]);
    char c;
    assert_int_equal(read(fds[0], &c, 1), 1);
    if (compress) {
        /* wait for the compressor's temporary file (at most 60 s) */
        char zpart[560];
        snprintf(zpart, sizeof zpart, ".%s.zst.tmp.", name);
        struct timespec tick = {0, 1000 * 1000};
        for (int i = 0; i < 60000 && count_files(zpart, NULL, 0) == 0; i++)
            nanosleep(&tick, NULL);
    }
    kill(kid, SIGKILL);
    int st;
    assert_int_equal(waitpid(kid, &st, 0), kid);
    close(fds[0]);
    if (!compress) {
        assert_true(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL);
        assert_false(exists(p));
        np_pdb *pdb = NULL;
        assert_true(np_pdb_open(&pdb, p, NULL, err, sizeof err) == NP_ENOTFOUND);
    } else {
        /* killed while compressing: the .pdb is complete; the .zst was never
         * renamed into place */
        if (!WIFSIGNALED(st))
            fail_msg("the compressor finished (status %d) before it was killed", st);
        assert_false(exists(z));
    }
    /* leftovers carry the pid in a temporary name and do not load */
    char found[8][512];
    int n = count_files(".tmp.", found, 8);
    char pidpart[32];
    snprintf(pidpart, sizeof pidpart, ".tmp.%ld.", (long)kid);
    for (int i = 0; i < n && i < 8; i++) {
        assert_non_null(strstr(found[i], pidpart));
        np_pdb *pdb = NULL;
        int rc = np_pdb_open(&pdb, found[i], NULL, err, sizeof err);
        if (rc == NP_OK)
            fail_msg("leftover %s loads", found[i]);
        unlink(found[i]);
    }
    if (!compress)
        assert_true(n >= 1); /* the write was really interrupted */
    unlink(p);
    unlink(z);
}

static void test_interrupted_write(void **state)
{
    (void)state;
    interrupted("killed8.pdb", NP_PDB_ENC_8BIT, false);
    interrupted("killed4.pdb", NP_PDB_ENC_AUTO, false);
    interrupted("killedz.pdb", NP_PDB_ENC_8BIT, true);
}

/* An interrupted overwrite keeps the old, complete file. */
static void test_interrupted_overwrite(void **state)
{
    (void)state;
    char p[512];
    path_in(p, sizeof p, "keep.pdb");
    np_geom g;
    np_geom_init(&g, 5, 5, NP_GOAL_BLANK_FIRST);
    const uint8_t tiles[2] = {1, 2};
    uint8_t v[600];
    memset(v, 7, sizeof v);
    assert_int_equal(np_pdb_write(p, &g, tiles, 2, v, 600,
                                  &(np_pdb_write_opts){.encoding = NP_PDB_ENC_8BIT}, NULL, err,
                                  sizeof err),
                     NP_OK);
    long before = file_size(p);
    /* now a child overwrites it with a big table and dies mid-write */
    int fds[2];
    assert_int_equal(pipe(fds), 0);
    pid_t kid = fork();
    assert_true(kid >= 0);
    if (kid == 0) {
        close(fds[0]);
        progress_fd = fds[1];
        uint64_t entries = 600;
        uint8_t big[600];
        memset(big, 9, sizeof big);
        np_pdb_write_opts o = {
            .encoding = NP_PDB_ENC_8BIT, .threads = 1, .progress = stall_after_first_chunk};
        char e[256];
        np_pdb_write(p, &g, tiles, 2, big, entries, &o, NULL, e, sizeof e);
        _exit(5);
    }
    close(fds[1]);
    char c;
    assert_int_equal(read(fds[0], &c, 1), 1);
    kill(kid, SIGKILL);
    waitpid(kid, NULL, 0);
    close(fds[0]);
    np_pdb *pdb;
    assert_int_equal(np_pdb_open(&pdb, p, NULL, err, sizeof err), NP_OK);
    assert_int_equal(np_pdb_payload(pdb)[0], 7);
    np_pdb_close(pdb);
    assert_int_equal(file_size(p), before);
    char found[8][512];
    int n = count_files(".tmp.", found, 8);
    for (int i = 0; i < n && i < 8; i++)
        unlink(found[i]);
    unlink(p);
}

/* ---- the record of verified files (NP_PDB_OPEN_STAMP) and np_pdb_recheck ---- */

/* The record's line for a file as it is now (the format pdb_stamp.c writes),
 * in boot `boot` (NULL: this one). */
static void record_line(char *line, size_t len, const char *path, const char *name,
                        const char *boot)
{
    char here[64] = "-";
    FILE *f = fopen("/proc/sys/kernel/random/boot_id", "r");
    if (f) {
        if (!fgets(here, sizeof here, f))
            snprintf(here, sizeof here, "-");
        here[strcspn(here, " \n")] = '\0';
        fclose(f);
    }
    struct stat st;
    assert_int_equal(stat(path, &st), 0);
    np_pdb_header h;
    assert_int_equal(np_pdb_read_header(&h, path, err, sizeof err), NP_OK);
    snprintf(line, len, "%016llx %s %llu %llu %llu %lld.%09ld %lld.%09ld %s\n",
             (unsigned long long)h.payload_xxh3, boot ? boot : here, (unsigned long long)st.st_dev,
             (unsigned long long)st.st_ino, (unsigned long long)st.st_size,
             (long long)st.st_mtim.tv_sec, st.st_mtim.tv_nsec, (long long)st.st_ctim.tv_sec,
             st.st_ctim.tv_nsec, name);
}

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    static char buf[65536];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    return buf;
}

static void append(const char *path, const char *text)
{
    FILE *f = fopen(path, "ab");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static int open_stamped(const char *path)
{
    np_pdb *p = NULL;
    err[0] = '\0';
    int rc = np_pdb_open_ex(&p, path, NULL, NP_PDB_OPEN_STAMP, err, sizeof err);
    np_pdb_close(p);
    return rc;
}

static void test_stamp(void **state)
{
    (void)state;
    /* files count as settled 2 s after their last change, not 900 s */
    assert_int_equal(setenv("NPUZZLE_PDB_SETTLE", "2", 1), 0);
    char a[512], b[512], c[512], rec[512], line[1024], stale[1024];
    fault_copy(a, sizeof a, "stamped-a.pdb");
    fault_copy(b, sizeof b, "stamped-b.pdb");
    fault_copy(c, sizeof c, "stamped-c.pdb");
    flip(c, 4096 + 77); /* damaged before it settles */
    path_in(rec, sizeof rec, ".npuzzle-verified");
    /* a record with another file's line, a stale line for b, and lines to drop */
    const char *other = "0123456789abcdef - 1 2 3 4.000000005 6.000000007 other.pdb\n";
    snprintf(stale, sizeof stale,
             "0123456789abcdef - 1 2 3 4.000000005 6.000000007 stamped-b.pdb\n");
    FILE *f = fopen(rec, "wb");
    assert_non_null(f);
    fprintf(f,
            "# a comment\n\n%s0123456789abcdef 1 2 3 4.5 6.7 older-form.pdb\n%s0 1 2 partial line",
            stale, other);
    fclose(f);
    /* a file changed within the settling time is verified but not recorded */
    assert_int_equal(open_stamped(a), NP_OK);
    assert_null(strstr(slurp(rec), "stamped-a.pdb"));
    sleep(3);
    assert_int_equal(open_stamped(a), NP_OK);
    assert_int_equal(open_stamped(b), NP_OK);
    const char *text = slurp(rec);
    record_line(line, sizeof line, a, "stamped-a.pdb", NULL);
    assert_non_null(strstr(text, line));
    record_line(line, sizeof line, b, "stamped-b.pdb", NULL);
    assert_non_null(strstr(text, line));
    assert_non_null(strstr(text, other)); /* kept */
    assert_null(strstr(text, stale));     /* replaced */
    assert_null(strstr(text, "partial")); /* dropped */
    assert_null(strstr(text, "a comment"));
    assert_null(strstr(text, "older-form"));
    assert_int_equal(count_files(".tmp.", NULL, 0), 0);

    /* the damaged, settled c: refused, and not recorded */
    assert_int_equal(open_stamped(c), NP_ECHECKSUM);
    assert_non_null(strstr(err, c));
    assert_null(strstr(slurp(rec), "stamped-c.pdb"));
    /* a line forged for it in another boot is not trusted; in this boot it is
     * (the hash is skipped, which is what the record is for), and without the
     * flag the damage is seen */
    record_line(line, sizeof line, c, "stamped-c.pdb", "00000000-0000-0000-0000-000000000000");
    append(rec, line);
    assert_int_equal(open_stamped(c), NP_ECHECKSUM);
    record_line(line, sizeof line, c, "stamped-c.pdb", NULL);
    append(rec, line);
    assert_int_equal(open_stamped(c), NP_OK);
    expect_open_fails(c, NULL, NP_ECHECKSUM, "checksum");
    /* opened unverified, np_pdb_recheck hashes it although nothing changed */
    np_pdb *p;
    assert_int_equal(np_pdb_open_ex(&p, c, NULL, NP_PDB_OPEN_NOVERIFY, err, sizeof err), NP_OK);
    assert_int_equal(np_pdb_recheck(p, err, sizeof err), NP_ECHECKSUM);
    np_pdb_close(p);

    /* damaged after it was recorded: a new identity, hashed and refused; a
     * line forged for it now is not trusted either (it has not settled) */
    flip(a, 4096 + 77);
    assert_int_equal(open_stamped(a), NP_ECHECKSUM);
    assert_non_null(strstr(err, a));
    record_line(line, sizeof line, a, "stamped-a.pdb", NULL);
    append(rec, line);
    assert_int_equal(open_stamped(a), NP_ECHECKSUM);

    /* np_pdb_recheck: unchanged, it passes; rewritten with the same bytes, it
     * hashes and passes; damaged under the mapping, it names the file */
    assert_int_equal(np_pdb_open_ex(&p, b, NULL, NP_PDB_OPEN_STAMP, err, sizeof err), NP_OK);
    assert_int_equal(np_pdb_recheck(p, err, sizeof err), NP_OK);
    uint8_t same = peek(b, 4096 + 5);
    poke(b, 4096 + 5, &same, 1);
    assert_int_equal(np_pdb_recheck(p, err, sizeof err), NP_OK);
    flip(b, 4096 + 5);
    assert_int_equal(np_pdb_recheck(p, err, sizeof err), NP_ECHECKSUM);
    assert_non_null(strstr(err, b));
    np_pdb_close(p);
    /* a FIFO in the record's place is not read (it would block) */
    unlink(rec);
    assert_int_equal(mkfifo(rec, 0644), 0);
    assert_int_equal(open_stamped(c), NP_ECHECKSUM);
    unlink(a);
    unlink(b);
    unlink(c);
    unlink(rec);
    unsetenv("NPUZZLE_PDB_SETTLE");
}

/* Files of two directories recorded together: each directory's record gets
 * its own files' lines, and only those. */
static void test_stamp_many(void **state)
{
    (void)state;
    char d1[512], d2[512], p[4][600], r1[600], r2[600];
    path_in(d1, sizeof d1, "many1");
    path_in(d2, sizeof d2, "many2");
    assert_int_equal(mkdir(d1, 0755), 0);
    assert_int_equal(mkdir(d2, 0755), 0);
    const char *dirs[4] = {d1, d2, d1, d2}, *names[4] = {"a.pdb", "b.pdb", "c.pdb", "d.pdb"};
    np__file_id id[4];
    np__stamp files[4];
    for (int i = 0; i < 4; i++) {
        snprintf(p[i], sizeof p[i], "%s/%s", dirs[i], names[i]);
        id[i] = (np__file_id){.dev = 1, .ino = 10 + (uint64_t)i, .size = 4096, .recent = i == 3};
        files[i] = (np__stamp){p[i], &id[i], 0x1111u * (uint64_t)(i + 1)};
    }
    np__pdb_stamp_add_many(files, 4);
    snprintf(r1, sizeof r1, "%s/%s", d1, NP__PDB_STAMP_NAME);
    snprintf(r2, sizeof r2, "%s/%s", d2, NP__PDB_STAMP_NAME);
    const char *t1 = slurp(r1);
    assert_non_null(t1);
    assert_non_null(strstr(t1, " a.pdb\n"));
    assert_non_null(strstr(t1, " c.pdb\n"));
    assert_null(strstr(t1, "b.pdb"));
    assert_null(strstr(t1, "d.pdb"));
    const char *t2 = slurp(r2);
    assert_non_null(t2);
    assert_non_null(strstr(t2, " b.pdb\n"));
    assert_null(strstr(t2, "a.pdb"));
    assert_null(strstr(t2, "c.pdb"));
    assert_null(strstr(t2, "d.pdb")); /* changed too recently: never recorded */
    unlink(r1);
    unlink(r2);
    rmdir(d1);
    rmdir(d2);
}

/* How many lines of the record at `path` end with " NAME" (NULL: how many lines). */
static int count_lines(const char *path, const char *name)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    int count = 0;
    char tail[256];
    snprintf(tail, sizeof tail, " %s\n", name ? name : "");
    const size_t tl = strlen(tail);
    while ((n = getline(&line, &cap, f)) > 0)
        count += !name || ((size_t)n >= tl && !strcmp(line + n - tl, tail));
    free(line);
    fclose(f);
    return count;
}

/* Files recorded together whose record already names them, some more than
 * once (a record written by hand, or by an older version): each ends up with
 * exactly its new line, and the other files' lines stay. */
static void test_stamp_many_stale(void **state)
{
    (void)state;
    char d[512], rec[600], p[2][600];
    path_in(d, sizeof d, "stale-group");
    assert_int_equal(mkdir(d, 0755), 0);
    snprintf(rec, sizeof rec, "%s/%s", d, NP__PDB_STAMP_NAME);
    FILE *f = fopen(rec, "wb");
    assert_non_null(f);
    fputs("0000000000000001 - 1 5 4096 1.000000000 1.000000000 a.pdb\n"
          "0000000000000002 - 1 6 4096 1.000000000 1.000000000 c.pdb\n"
          "0123456789abcdef - 1 7 4096 1.000000000 1.000000000 keep.pdb\n"
          "0000000000000003 - 1 5 4096 2.000000000 2.000000000 a.pdb\n"
          "0000000000000004 - 1 6 4096 2.000000000 2.000000000 c.pdb\n"
          "0000000000000005 - 1 6 4096 3.000000000 3.000000000 c.pdb\n",
          f);
    fclose(f);
    const char *names[2] = {"a.pdb", "c.pdb"};
    np__file_id id[2];
    np__stamp files[2];
    for (int i = 0; i < 2; i++) {
        snprintf(p[i], sizeof p[i], "%s/%s", d, names[i]);
        id[i] = (np__file_id){.dev = 1, .ino = 5 + (uint64_t)i, .size = 4096, .mtime_s = 9};
        files[i] = (np__stamp){p[i], &id[i], 0x7777u + (uint64_t)i};
    }
    np__pdb_stamp_add_many(files, 2);
    assert_int_equal(count_lines(rec, "a.pdb"), 1);
    assert_int_equal(count_lines(rec, "c.pdb"), 1);
    assert_int_equal(count_lines(rec, "keep.pdb"), 1);
    assert_int_equal(count_lines(rec, NULL), 4); /* the comment and three files */
    for (int i = 0; i < 2; i++)
        assert_true(np__pdb_stamp_match(p[i], &id[i], files[i].xxh3));
    np__file_id old = id[0];
    old.mtime_s = 2;
    assert_false(np__pdb_stamp_match(p[0], &old, 3)); /* the stale line is gone */
    unlink(rec);
    rmdir(d);
}

/* A record near its size limit: recording a file keeps every other file's
 * line while they and the new line fit (room is kept for the new line's
 * length, not for the longest line there could be). */
static void test_stamp_near_limit(void **state)
{
    (void)state;
    char d[512], rec[600], p[600], line[128];
    path_in(d, sizeof d, "near-limit");
    assert_int_equal(mkdir(d, 0755), 0);
    snprintf(rec, sizeof rec, "%s/%s", d, NP__PDB_STAMP_NAME);
    FILE *f = fopen(rec, "wb");
    assert_non_null(f);
    /* other files' lines up to 2,000 bytes short of the limit: room for the
     * comment line (under 200 bytes) and the new line (under 200), not for
     * a reservation of a path's length */
    long total = 0;
    int lines = 0;
    for (;;) {
        int n = snprintf(line, sizeof line,
                         "0123456789abcdef - 1 %d 4096 1.000000000 1.000000000 f%07d.pdb\n", lines,
                         lines);
        if (total + n > NP__PDB_STAMP_MAX_BYTES - 2000)
            break;
        fputs(line, f);
        total += n;
        lines++;
    }
    fclose(f);
    snprintf(p, sizeof p, "%s/new.pdb", d);
    np__file_id id = {.dev = 1, .ino = 99, .size = 4096, .mtime_s = 9};
    np__pdb_stamp_add(p, &id, 0x4242u);
    assert_int_equal(count_lines(rec, NULL), lines + 2); /* the comment, the old, the new */
    assert_int_equal(count_lines(rec, "f0000000.pdb"), 1);
    snprintf(line, sizeof line, "f%07d.pdb", lines - 1);
    assert_int_equal(count_lines(rec, line), 1); /* the last one kept too */
    assert_true(np__pdb_stamp_match(p, &id, 0x4242u));
    struct stat st;
    assert_int_equal(stat(rec, &st), 0);
    assert_true(st.st_size < NP__PDB_STAMP_MAX_BYTES);
    unlink(rec);
    rmdir(d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        /* the forking tests first, before this process has started OpenMP threads */
        cmocka_unit_test(test_interrupted_write),
        cmocka_unit_test(test_interrupted_overwrite),
        cmocka_unit_test(test_zst_race),
        cmocka_unit_test(test_labelled_geometry_refused),
        cmocka_unit_test(test_round_trip_3x3),
        cmocka_unit_test(test_round_trip_larger),
        cmocka_unit_test(test_encoding_choice),
        cmocka_unit_test(test_filename),
        cmocka_unit_test(test_reference_opens),
        cmocka_unit_test(test_fault_missing),
        cmocka_unit_test(test_open_bad_paths),
        cmocka_unit_test(test_find_missing),
        cmocka_unit_test(test_fault_truncated_header),
        cmocka_unit_test(test_fault_truncated_payload),
        cmocka_unit_test(test_fault_flipped_payload),
        cmocka_unit_test(test_fault_flipped_header),
        cmocka_unit_test(test_fault_magic),
        cmocka_unit_test(test_fault_other_board),
        cmocka_unit_test(test_fault_other_pattern),
        cmocka_unit_test(test_fault_future_version),
        cmocka_unit_test(test_fault_forged_headers),
        cmocka_unit_test(test_fault_generator),
        cmocka_unit_test(test_info_max_value),
        cmocka_unit_test(test_zst_round_trip),
        cmocka_unit_test(test_zst_cancel),
        cmocka_unit_test(test_zst_damaged),
        cmocka_unit_test(test_stamp),
        cmocka_unit_test(test_stamp_many),
        cmocka_unit_test(test_stamp_many_stale),
        cmocka_unit_test(test_stamp_near_limit),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
