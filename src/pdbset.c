/* pdbset.c - the PDB set of a partition: opening its tables (shared or private copies), checking,
 * closing. */
#include "npuzzle/pdbset.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "npuzzle/error.h"
#include "npuzzle/pdb_gen.h"
#include "npuzzle/sys.h"
#include "error_internal.h"
#include "pdb_stamp_internal.h"
#include "pdb_zstd_internal.h"
#include "pdbset_internal.h"

/* Copy pattern p's payload into private memory backed by 2 MiB pages where
 * the kernel allows (transparent huge pages, madvise mode). The lookups are
 * random over hundreds of MiB: with 4 KiB pages nearly every one misses the
 * TLB as well as the cache, and on a virtual machine a page walk is costly. */
static int copy_to_huge_pages(np_pdbset *set, int p, char *err, size_t errlen)
{
    const size_t huge = (size_t)2 << 20;
    size_t len = (size_t)np_pdb_payload_bytes(set->view[p].encoding, set->view[p].entries);
    size_t alloc = (len + huge - 1) & ~(huge - 1);
    /* Refused before allocating: with overcommit the allocation would pass
     * and the copy be killed halfway. */
    const uint64_t avail = np_mem_available();
    if (avail && alloc > avail) {
        char need[32], have[32];
        return np__fail(NP_ETOOBIG, err, errlen,
                        "%s: a private copy of the table needs %s, but only %s is available "
                        "(leave out --pdb-private: the shared mapping needs none)",
                        np_pdb_path(set->pdb[p]), np_format_bytes(need, sizeof need, alloc),
                        np_format_bytes(have, sizeof have, avail));
    }
    void *mem = NULL;
    if (posix_memalign(&mem, huge, alloc) != 0) {
        return np__fail(NP_ENOMEM, err, errlen,
                        "%s: no memory for a private copy of the table (%zu bytes)",
                        np_pdb_path(set->pdb[p]), alloc);
    }
#ifdef MADV_HUGEPAGE
    (void)madvise(mem, alloc, MADV_HUGEPAGE); /* a hint: without it, 4 KiB pages */
#endif
    memcpy(mem, set->view[p].payload, len);
    set->copy[p] = mem;
    set->view[p].payload = mem;
    return NP_OK;
}

/* The flags each table is opened with. */
static unsigned open_flags(unsigned set_flags)
{
    return set_flags & NP_PDBSET_STAMP ? NP_PDB_OPEN_STAMP | NP__PDB_OPEN_STAMP_LATER : 0;
}

/* A table opened under a zero-aware name must have the zero-aware encoding:
 * NP_OK, or NP_EMISMATCH naming the file. */
static int require_zero_aware(const np_pdb *pdb, char *err, size_t errlen)
{
    if (np_pdb_encoding(pdb) == NP_PDB_ENC_ZA)
        return NP_OK;
    return np__fail(NP_EMISMATCH, err, errlen, "%s: a %s table, not a zero-aware one",
                    np_pdb_path(pdb), np_pdb_encoding_name(np_pdb_encoding(pdb)));
}

/* The dual lookup's tables (np__pdb_dual); with NP_PDBSET_DUAL the tables of
 * other goal regions are opened from `dir` (those missing are counted and
 * skipped; a bad one fails the open). With NP_PDBSET_ZERO_AWARE each is
 * taken in its zero-aware form (np_pdb_filename_region_za) where that file
 * is there, else in the plain one. */
static int dual_tables(np_pdbset *set, const char *dir, unsigned flags, char *err, size_t errlen)
{
    const np_geom *g = &set->g;
    uint8_t tile_home_to[NP_MAX_CELLS];
    for (int t = 0; t < g->cells; t++) {
        tile_home_to[g->home[t]] = (uint8_t)t;
        set->dual_cell[0][t] = (uint8_t)t;
        set->dual_cell[1][t] = g->mirror_cell[t];
        set->dual_home[0][t] = g->home[t];
        set->dual_home[1][t] = g->home[g->mirror_tile[t]];
    }
    for (int h = 0; h < g->cells; h++)
        set->pat_of_home[h] = set->pat_of[tile_home_to[h]];
    for (int p = 0; p < set->npat; p++) {
        const np_pattern *pat = &set->part.patterns[p];
        int8_t region[NP_MAX_CELLS]; /* each cell's region (np_pdb_goal_regions) */
        int starts[NP_MAX_CELLS];
        int nr = np_pdb_goal_regions(g, pat->tiles, pat->ntiles, starts, region);
        if (nr > NP_PDBSET_REGIONS)
            nr = NP_PDBSET_REGIONS; /* as np_pdb_dual_tables lists them */
        np_pdb_table_spec specs[2 * NP_MAX_CELLS];
        const int ns = np_pdb_dual_tables(g, pat->tiles, pat->ntiles, specs);
        if (pat->ntiles > 1)
            np_ranker_init(&set->sub_ranker[p], g->cells, pat->ntiles - 1);
        for (int i = 0; i < ns && (flags & NP_PDBSET_DUAL); i++) {
            const np_pdb_table_spec *sp = &specs[i];
            np_pdb **slot = i < nr ? &set->region_pdb[p][i] : &set->sub_pdb[p][i - nr];
            char name[256], path[4096], msg[4096 + 256] = "";
            np_pdb_expect expect = {g->rows,    g->cols,   (int)g->goal,
                                    sp->ntiles, sp->tiles, sp->goal_region};
            int rc = NP_ENOTFOUND;
            for (int za = (flags & NP_PDBSET_ZERO_AWARE) ? 1 : 0; za >= 0 && rc == NP_ENOTFOUND;
                 za--) {
                if (za)
                    np_pdb_filename_region_za(name, sizeof name, g, sp->tiles, sp->ntiles,
                                              sp->goal_region);
                else
                    np_pdb_filename_region(name, sizeof name, g, sp->tiles, sp->ntiles,
                                           sp->goal_region);
                if (snprintf(path, sizeof path, "%s/%s", dir, name) >= (int)sizeof path)
                    return np__fail(NP_EINVAL, err, errlen, "%s/%s: path too long", dir, name);
                /* a missing table is no error: its message stays out of err */
                rc = np_pdb_open_ex(slot, path, &expect, open_flags(flags), msg, sizeof msg);
                if (rc == NP_OK && za && (rc = require_zero_aware(*slot, err, errlen)) != NP_OK)
                    return rc;
            }
            if (rc == NP_ENOTFOUND) {
                if (!set->dual_missing++)
                    snprintf(set->dual_missing_path, sizeof set->dual_missing_path, "%s", path);
                continue;
            }
            if (rc != NP_OK)
                return np__fail(rc, err, errlen, "%s", msg);
            np_pdb_view v = np_pdb_get_view(*slot);
            const uint64_t want = i < nr ? set->ranker[p].count : set->sub_ranker[p].count;
            if (v.entries != want)
                return np__fail(NP_EMISMATCH, err, errlen, "%s: %llu entries, pattern needs %llu",
                                path, (unsigned long long)v.entries, (unsigned long long)want);
            if (i < nr) {
                set->region_view[p][i] = v;
            } else {
                const int j = i - nr, h = g->home[pat->tiles[j]];
                set->sub_view[p][j] = v;
                set->sub_view_of[h] = &set->sub_view[p][j];
                set->sub_skip[h] = (int8_t)j;
            }
        }
        for (int z = 0; z < g->cells; z++) {
            const int k = region[z];
            set->dual_view[p][z] = k == 0 ? &set->view[p]
                : k > 0 && k <= NP_PDBSET_REGIONS && set->region_pdb[p][k - 1]
                ? &set->region_view[p][k - 1]
                : NULL;
        }
    }
    return NP_OK;
}

/* Fill the rows of region table t for the `sets` label sets of k labels,
 * row_bytes a row: (`direct`) a byte per label at the set itself, else a
 * nibble per label at the set's colex rank. The generator's regions, those
 * past the ones a table tells apart and occupied labels as 4. */
static void za_fill_rows(const np_geom *lab, uint8_t *t, int k, uint64_t sets, uint64_t row_bytes,
                         bool direct)
{
    const int n = lab->cells;
    uint64_t adj[NP_MAX_CELLS];
    np__region_adjacency(lab, adj);
    uint64_t mask = (UINT64_C(1) << k) - 1; /* the sets in colex order */
    for (uint64_t r = 0; r < sets; r++) {
        uint8_t region[NP_MAX_CELLS];
        np__label_regions_adj(adj, n, mask, region);
        uint8_t *row = t + (direct ? mask : r) * row_bytes;
        for (int z = 0; z < n; z++) {
            /* NP__NO_REGION included */
            const uint8_t v = region[z] < NP_PDB_GAIN_REGIONS ? region[z] : NP_PDB_GAIN_REGIONS;
            if (direct)
                row[z] = v;
            else
                row[z >> 1] |= (uint8_t)(v << ((z & 1) << 2));
        }
        if (r + 1 < sets)
            mask = np__next_subset(mask);
    }
}

/* The region table of k-tile patterns (np__za_value) into *out: every cell
 * set of k labels, ranked in colex order, its free labels' regions numbered
 * as the generator numbers them (in the order of their least label, on the
 * labelled board). Made once per size. With za_direct one table, indexed by
 * the label set itself, serves every size, and only the rows of the sizes
 * asked for are filled, the only ones read (a pattern's tiles stand on k
 * labels): the 7-8 tables need 24,310 rows of the 65,536. */
static int za_region_table(np_pdbset *set, const np_geom *lab, int k, const uint8_t **out,
                           char *err, size_t errlen)
{
    const int n = set->g.cells;
    const int slot = set->za_direct ? 0 : k;
    const uint64_t row_bytes = set->za_direct ? (uint64_t)n : (uint64_t)set->za_row_bytes;
    if (!set->za_region_own[slot]) {
        const uint64_t sets = set->za_direct ? UINT64_C(1) << n : set->za_index.binom[n][k];
        if (sets > (UINT64_C(256) << 20) / row_bytes)
            return np__fail(NP_ETOOBIG, err, errlen,
                            "zero-aware lookups of %d-tile patterns on %d cells need region "
                            "tables of %llu MiB",
                            k, n, (unsigned long long)(sets * row_bytes >> 20));
        /* zeroed: the rows of sizes not asked for hold region 0, never read;
         * packed rows are ORed in */
        uint8_t *t = calloc((size_t)sets, (size_t)row_bytes);
        if (!t)
            return np__fail(NP_ENOMEM, err, errlen, "out of memory for region tables");
        set->za_region_own[slot] = t;
        if (!set->za_direct)
            za_fill_rows(lab, t, k, sets, row_bytes, false);
    }
    if (set->za_direct && !(set->za_direct_sizes >> k & 1)) {
        za_fill_rows(lab, set->za_region_own[0], k, set->za_index.binom[n][k], row_bytes, true);
        set->za_direct_sizes |= UINT64_C(1) << k;
    }
    *out = set->za_region_own[slot];
    return NP_OK;
}

/* The region tables of the zero-aware lookups: of each pattern's size and,
 * for the dual lookups' tables (`dual`), of one tile less. */
static int za_region_tables(np_pdbset *set, bool dual, char *err, size_t errlen)
{
    const int n = set->g.cells;
    np_geom lab;
    int kmax = 1;
    for (int p = 0; p < set->npat; p++)
        if (set->part.patterns[p].ntiles > kmax)
            kmax = set->part.patterns[p].ntiles;
    if (np_geom_labelled(&set->g, &lab) != NP_OK ||
        np__gen_index_init(&set->za_index, n, kmax) != NP_OK)
        return np__fail(NP_EINVAL, err, errlen, "no region tables for these patterns");
    set->za_direct = n <= 16;
    set->za_row_bytes = (n + 1) / 2;
    for (int p = 0; p < set->npat; p++) {
        const int k = set->part.patterns[p].ntiles;
        int rc = za_region_table(set, &lab, k, &set->za_region[p], err, errlen);
        if (rc == NP_OK && dual && k > 1)
            rc = za_region_table(set, &lab, k - 1, &set->za_region_sub[p], err, errlen);
        if (rc != NP_OK)
            return rc;
    }
    set->za = true;
    return NP_OK;
}

bool np_pdbset_zero_aware(const np_pdbset *set)
{
    return set->za;
}

/* What np_pdbset_open and np_pdbset_find_missing refuse before they look at
 * a file. */
static int check_request(const np_geom *g, const np_partition *part, const char *dir,
                         unsigned flags, char *err, size_t errlen)
{
    if (!dir)
        return np__fail(NP_EINVAL, err, errlen, "no directory given for the tables");
    if (flags &
        ~(unsigned)(NP_PDBSET_PRIVATE_COPY | NP_PDBSET_DUAL | NP_PDBSET_STAMP |
                    NP_PDBSET_ZERO_AWARE))
        return np__fail(NP_EINVAL, err, errlen, "unknown flags 0x%x", flags);
    if (!np_geom_row_major(g))
        return np__fail(NP_EINVAL, err, errlen,
                        "the geometry is labelled; tables are opened for a row-major one");
    if (part->rows != g->rows || part->cols != g->cols || !np_partition_covers(part)) {
        return np__fail(NP_EINVAL, err, errlen,
                        "partition %s does not cover every tile of a %dx%d board", part->name,
                        g->rows, g->cols);
    }
    return NP_OK;
}

/* The path of pattern p's table of `part` in dir (its zero-aware one when
 * za). @return NP_OK or NP_EINVAL (too long, message in err). */
static int table_path(char *path, size_t len, const np_geom *g, const np_partition *part, int p,
                      const char *dir, bool za, char *err, size_t errlen)
{
    const np_pattern *pat = &part->patterns[p];
    char name[256];
    if (za)
        np_pdb_filename_za(name, sizeof name, g, pat->tiles, pat->ntiles);
    else
        np_pdb_filename(name, sizeof name, g, pat->tiles, pat->ntiles);
    if (snprintf(path, len, "%s/%s", dir, name) >= (int)len)
        return np__fail(NP_EINVAL, err, errlen, "%s/%s: path too long", dir, name);
    return NP_OK;
}

int np_pdbset_find_missing(const np_geom *g, const np_partition *part, const char *dir,
                           unsigned flags, char *missing, size_t missinglen, char *err,
                           size_t errlen)
{
    if (missing && missinglen)
        missing[0] = '\0';
    int rc = check_request(g, part, dir, flags, err, errlen);
    for (int p = 0; p < part->npatterns && rc == NP_OK; p++) {
        char path[4096];
        bool packed;
        rc = table_path(path, sizeof path, g, part, p, dir, flags & NP_PDBSET_ZERO_AWARE, err,
                        errlen);
        if (rc == NP_OK)
            rc = np__pdb_locate(path, &packed, err, errlen);
        if (rc != NP_OK && rc != NP_EINVAL && missing && missinglen)
            snprintf(missing, missinglen, "%s", path);
    }
    return rc;
}

int np_pdbset_open(np_pdbset **out, const np_geom *g, const np_partition *part, const char *dir,
                   unsigned flags, char *err, size_t errlen)
{
    *out = NULL;
    int rc = check_request(g, part, dir, flags, err, errlen);
    if (rc != NP_OK)
        return rc;
    np_pdbset *set = calloc(1, sizeof *set);
    if (!set)
        return np__fail(NP_ENOMEM, err, errlen, "out of memory opening the tables in %s", dir);
    set->g = *g;
    set->part = *part;
    set->npat = part->npatterns;
    memset(set->pat_of, -1, sizeof set->pat_of);
    for (int p = 0; p < set->npat && rc == NP_OK; p++) {
        const np_pattern *pat = &part->patterns[p];
        for (int j = 0; j < pat->ntiles; j++)
            set->pat_of[pat->tiles[j]] = (int8_t)p;
        char path[4096];
        rc = table_path(path, sizeof path, g, part, p, dir, flags & NP_PDBSET_ZERO_AWARE, err,
                        errlen);
        if (rc != NP_OK)
            break;
        np_pdb_expect expect = {g->rows, g->cols, (int)g->goal, pat->ntiles, pat->tiles, 0};
        rc = np_pdb_open_ex(&set->pdb[p], path, &expect, open_flags(flags), err, errlen);
        if (rc != NP_OK)
            break;
        if ((flags & NP_PDBSET_ZERO_AWARE) &&
            (rc = require_zero_aware(set->pdb[p], err, errlen)) != NP_OK)
            break;
        set->view[p] = np_pdb_get_view(set->pdb[p]);
        if (flags & NP_PDBSET_PRIVATE_COPY) {
            rc = copy_to_huge_pages(set, p, err, errlen);
            if (rc != NP_OK)
                break;
        }
        np_ranker_init(&set->ranker[p], g->cells, pat->ntiles);
        if (set->ranker[p].count != set->view[p].entries) {
            rc = np__fail(NP_EMISMATCH, err, errlen, "%s: %llu entries, pattern needs %llu", path,
                          (unsigned long long)set->view[p].entries,
                          (unsigned long long)set->ranker[p].count);
        }
    }
    if (rc == NP_OK && (flags & NP_PDBSET_ZERO_AWARE))
        rc = za_region_tables(set, (flags & NP_PDBSET_DUAL) != 0, err, errlen);
    if (rc == NP_OK)
        rc = dual_tables(set, dir, flags, err, errlen);
    /* the tables verified now, in one rewrite of the record (those of a set
     * that failed too: they were verified) */
    np_pdb *opened[NP_PARTITION_MAX * (1 + NP_PDBSET_REGIONS + NP_PATTERN_MAX_TILES)];
    int nopened = 0;
    for (int p = 0; p < NP_PARTITION_MAX; p++) {
        opened[nopened++] = set->pdb[p];
        for (int k = 0; k < NP_PDBSET_REGIONS; k++)
            opened[nopened++] = set->region_pdb[p][k];
        for (int j = 0; j < NP_PATTERN_MAX_TILES; j++)
            opened[nopened++] = set->sub_pdb[p][j];
    }
    np__pdb_stamp_due(opened, nopened);
    if (rc != NP_OK) {
        np_pdbset_close(set);
        return rc;
    }
    *out = set;
    return NP_OK;
}

void np_pdbset_close(np_pdbset *set)
{
    if (!set)
        return;
    for (int p = 0; p < NP_PARTITION_MAX; p++) {
        if (set->pdb[p])
            np_pdb_close(set->pdb[p]);
        for (int k = 0; k < NP_PDBSET_REGIONS; k++)
            if (set->region_pdb[p][k])
                np_pdb_close(set->region_pdb[p][k]);
        for (int j = 0; j < NP_PATTERN_MAX_TILES; j++)
            if (set->sub_pdb[p][j])
                np_pdb_close(set->sub_pdb[p][j]);
        free(set->copy[p]);
    }
    for (int k = 0; k <= NP_PATTERN_MAX_TILES; k++)
        free(set->za_region_own[k]);
    free(set);
}

/* check(table) on every table of the set, dual ones included: the first error. */
static int check_tables(const np_pdbset *set, int (*check)(const np_pdb *, char *, size_t),
                        char *err, size_t errlen)
{
    for (int p = 0; p < set->npat; p++) {
        int rc = check(set->pdb[p], err, errlen);
        for (int k = 0; k < NP_PDBSET_REGIONS && rc == NP_OK; k++)
            if (set->region_pdb[p][k])
                rc = check(set->region_pdb[p][k], err, errlen);
        for (int j = 0; j < NP_PATTERN_MAX_TILES && rc == NP_OK; j++)
            if (set->sub_pdb[p][j])
                rc = check(set->sub_pdb[p][j], err, errlen);
        if (rc != NP_OK)
            return rc;
    }
    return NP_OK;
}

int np_pdbset_verify(const np_pdbset *set, char *err, size_t errlen)
{
    return check_tables(set, np_pdb_verify, err, errlen);
}

int np_pdbset_recheck(const np_pdbset *set, char *err, size_t errlen)
{
    return check_tables(set, np_pdb_recheck, err, errlen);
}

const np_partition *np_pdbset_partition(const np_pdbset *set)
{
    return &set->part;
}

uint64_t np_pdbset_table_checksum(const np_pdbset *set, int p)
{
    return np_pdb_get_header(set->pdb[p])->payload_xxh3;
}

uint64_t np_pdbset_digest(const np_pdbset *set)
{
    /* FNV-1a over the bytes that name each table's contents: the partition's
     * tables, then (NP_PDBSET_DUAL) the dual lookups' tables that are open
     * and how many are missing, which change the search's counts too. A set
     * opened without them digests as before they existed. */
    uint64_t h = 0xcbf29ce484222325ULL;
#define NP_DIGEST_BYTE(b) (h = (h ^ (uint8_t)(b)) * 0x100000001b3ULL)
    for (int i = 0; i < set->npat * (1 + NP_PDBSET_REGIONS + NP_PATTERN_MAX_TILES); i++) {
        const int p = i % set->npat, slot = i / set->npat;
        const np_pdb *pdb = slot == 0   ? set->pdb[p]
            : slot <= NP_PDBSET_REGIONS ? set->region_pdb[p][slot - 1]
                                        : set->sub_pdb[p][slot - 1 - NP_PDBSET_REGIONS];
        if (!pdb)
            continue;
        const np_pdb_header *hd = np_pdb_get_header(pdb);
        if (slot)
            NP_DIGEST_BYTE(hd->goal_region + 1);
        NP_DIGEST_BYTE(hd->ntiles);
        for (int j = 0; j < hd->ntiles; j++)
            NP_DIGEST_BYTE(hd->tiles[j]);
        for (int k = 0; k < 64; k += 8)
            NP_DIGEST_BYTE(hd->payload_xxh3 >> k);
    }
    if (set->dual_missing)
        NP_DIGEST_BYTE(0xFF - set->dual_missing);
#undef NP_DIGEST_BYTE
    return h;
}

int np_pdbset_dual_missing(const np_pdbset *set, const char **first)
{
    if (first)
        *first = set->dual_missing ? set->dual_missing_path : NULL;
    return set->dual_missing;
}
