/* fuzz_pdb_open.c - libFuzzer harness: a pattern database file made of arbitrary bytes.
 *
 * Each input is written to a private temporary directory (on /dev/shm when it
 * exists) and read four ways: np_pdb_read_header; np_pdb_open with no
 * expectation, with one taken from the bytes themselves and with a fixed
 * 2x3 one; the same bytes with their payload and header checksums repaired (so
 * the checks behind the checksums are reached too); and as FILE.pdb.zst with
 * no FILE.pdb, raw and as a valid zstd frame of the repaired bytes, so the
 * unpack path runs (and, once unpacked, the second open maps FILE.pdb). Every call must return NP_OK or a named error with a
 * message; an open file must answer its accessors and lookups inside its
 * mapping. The directory is emptied after each input; a stray temporary file
 * left by the library aborts. */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
/* header-only use of xxhash: the harness needs no link flags of its own, so the
 * normal build can replay the corpus (tests/test_fuzz_replay.c) */
#define XXH_INLINE_ALL
#include <xxhash.h>

#include "npuzzle.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(cond) \
    do { \
        if (!(cond)) { \
            fprintf(stderr, "fuzz_pdb_open: check failed: %s (line %d)\n", #cond, __LINE__); \
            abort(); \
        } \
    } while (0)

static char dir[256];

static void remove_dir(void)
{
    if (dir[0])
        rmdir(dir);
}

static void setup_dir(void)
{
    if (dir[0])
        return;
    const char *base =
        access("/dev/shm", W_OK) == 0 ? "/dev/shm" : (getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    snprintf(dir, sizeof dir, "%s/fuzz_pdb_open.XXXXXX", base);
    CHECK(mkdtemp(dir) != NULL);
    atexit(remove_dir);
}

static void path_of(char *buf, size_t len, const char *name)
{
    snprintf(buf, len, "%s/%s", dir, name);
}

static void write_file(const char *name, const uint8_t *data, size_t size)
{
    char p[512];
    path_of(p, sizeof p, name);
    FILE *f = fopen(p, "wb");
    CHECK(f != NULL);
    CHECK(size == 0 || fwrite(data, 1, size, f) == size);
    CHECK(fclose(f) == 0);
}

/* Remove every file of the directory; any name but `allowed` means the library
 * left a temporary file behind. */
static void clean_dir(void)
{
    static const char *const allowed[] = {"f.pdb", "z.pdb", "z.pdb.zst"};
    DIR *d = opendir(dir);
    CHECK(d != NULL);
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
            continue;
        bool ok = false;
        for (size_t i = 0; i < sizeof allowed / sizeof allowed[0]; i++)
            ok |= !strcmp(e->d_name, allowed[i]);
        if (!ok) {
            fprintf(stderr, "fuzz_pdb_open: stray file left behind: %s\n", e->d_name);
            abort();
        }
        char p[512];
        path_of(p, sizeof p, e->d_name);
        CHECK(unlink(p) == 0);
    }
    closedir(d);
}

static void check_err(int rc, const char *err)
{
    CHECK(rc <= 0 && rc >= NP_EUNSUPPORTED);
    if (rc != NP_OK)
        CHECK(memchr(err, 0, 256) != NULL && err[0] != 0);
}

/* Everything an open PDB promises: accessors agree, lookups stay in the map. */
static void exercise(np_pdb *p, size_t file_size)
{
    const np_pdb_header *h = np_pdb_get_header(p);
    CHECK(h->payload_offset + h->payload_length == file_size);
    CHECK(np_pdb_entries(p) == h->entries && np_pdb_ntiles(p) == h->ntiles);
    CHECK(np_pdb_tiles(p) != NULL && np_pdb_path(p) != NULL && np_pdb_payload(p) != NULL);
    CHECK(np_pdb_encoding(p) == NP_PDB_ENC_8BIT || np_pdb_encoding(p) == NP_PDB_ENC_4BIT);
    np_pdb_view v = np_pdb_get_view(p);
    CHECK(v.entries == h->entries);
    volatile int sink = 0;
    uint64_t idx[3] = {0, v.entries / 2, v.entries - 1};
    for (int i = 0; i < 3; i++)
        sink += np_pdb_view_value(&v, idx[i], 0);
    (void)sink;
    char err[256];
    check_err(np_pdb_verify(p, err, sizeof err), err);
    np_geom g;
    if (v.entries <= 100000 && np_geom_init(&g, h->rows, h->cols, h->goal) == NP_OK) {
        uint64_t hist[256];
        CHECK(np_pdb_histogram(p, &g, hist, 1) == NP_OK);
        uint64_t total = 0;
        for (int i = 0; i < 256; i++)
            total += hist[i];
        CHECK(total == v.entries);
    }
}

/* Read `name` every way; `many` = all three expectations with and without the
 * checksum, else two opens (a .pdb.zst is unpacked again on each failed open). */
static void open_all_ways(const char *name, const uint8_t *data, size_t size, bool many)
{
    char p[512], err[256];
    path_of(p, sizeof p, name);
    np_pdb_header h;
    check_err(np_pdb_read_header(&h, p, err, sizeof err), err);

    uint8_t tiles_fixed[3] = {1, 2, 3};
    uint8_t tiles_own[NP_MAX_CELLS];
    np_pdb_expect own = {0, 0, -1, 0, NULL, -1};
    if (size >= 24) {
        own.rows = data[16];
        own.cols = data[17];
        own.goal = data[18] & 1;
        own.ntiles = data[20] % NP_MAX_CELLS;
        for (int i = 0; i < own.ntiles; i++)
            tiles_own[i] = 24 + (size_t)i < size ? data[24 + i] : 0;
        own.tiles = tiles_own;
    }
    const np_pdb_expect fixed = {2, 3, NP_GOAL_BLANK_FIRST, 3, tiles_fixed, 0};
    const np_pdb_expect *expects[3] = {NULL, &own, &fixed};
    for (int e = 0; e < 3; e++) {
        for (unsigned flags = 0; flags < 2; flags++) {
            if (!many && e + flags != 1)
                continue;
            np_pdb *pdb = NULL;
            memset(err, 'x', sizeof err);
            int rc = np_pdb_open_ex(&pdb, p, expects[e], flags ? NP_PDB_OPEN_NOVERIFY : 0, err,
                                    sizeof err);
            check_err(rc, err);
            CHECK((rc == NP_OK) == (pdb != NULL));
            if (pdb) {
                struct stat st;
                CHECK(stat(p, &st) == 0);
                exercise(pdb, (size_t)st.st_size);
                np_pdb_close(pdb);
            }
        }
    }
}

/* Make the payload and header checksums right, so the fields behind them are reached. */
static void repair(uint8_t *b, size_t size)
{
    if (size < NP_PDB_HEADER_SIZE)
        return;
    uint64_t off = 0, len = 0;
    for (int i = 7; i >= 0; i--) {
        off = off << 8 | b[96 + i];
        len = len << 8 | b[104 + i];
    }
    if (off <= size && len <= size - off) {
        uint64_t sum = XXH3_64bits(b + off, (size_t)len);
        for (int i = 0; i < 8; i++)
            b[112 + i] = (uint8_t)(sum >> (8 * i));
    }
    uint64_t hs = XXH3_64bits(b, 248);
    for (int i = 0; i < 8; i++)
        b[248 + i] = (uint8_t)(hs >> (8 * i));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    setup_dir();
    char zpath[512];
    path_of(zpath, sizeof zpath, "z.pdb");

    /* the bytes as they are: a .pdb, then a .pdb.zst with no .pdb beside it */
    write_file("f.pdb", data, size);
    open_all_ways("f.pdb", data, size, true);
    write_file("z.pdb.zst", data, size);
    open_all_ways("z.pdb", data, size, false);
    clean_dir();

    /* repaired checksums: a .pdb, and a valid zstd frame of it */
    uint8_t *fixed = malloc(size ? size : 1);
    CHECK(fixed != NULL);
    memcpy(fixed, data, size);
    repair(fixed, size);
    write_file("f.pdb", fixed, size);
    open_all_ways("f.pdb", fixed, size, true);
    /* packing costs a few fsyncs: only for bytes that get past the magic check */
    if (size >= NP_PDB_HEADER_SIZE && memcmp(fixed, NP_PDB_MAGIC, 8) == 0) {
        char src[512], dst[512], err[256];
        path_of(src, sizeof src, "f.pdb");
        path_of(dst, sizeof dst, "z.pdb.zst");
        CHECK(np_pdb_compress(src, dst, 1, 0, NULL, err, sizeof err) == NP_OK);
        CHECK(unlink(src) == 0);
        open_all_ways("z.pdb", fixed, size, false);
    }
    clean_dir();
    free(fixed);
    return 0;
}
