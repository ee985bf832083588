/* heuristic.c - Manhattan distance and linear conflict, computed from scratch. */
#include "npuzzle/heuristic.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "npuzzle/error.h"
#include "error_internal.h"
#include "pdbset_internal.h"

int np_hkind_parse(np_hkind *out, const char *name)
{
    static const struct { const char *name; np_hkind kind; } names[] = {
        {"md", NP_H_MD}, {"manhattan", NP_H_MD}, {"lc", NP_H_LC},
        {"linear-conflict", NP_H_LC}, {"pdb", NP_H_PDB},
    };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcmp(name, names[i].name) == 0) {
            *out = names[i].kind;
            return NP_OK;
        }
    return NP_EINVAL;
}

const char *np_hkind_name(np_hkind k)
{
    switch (k) {
    case NP_H_MD: return "md";
    case NP_H_LC: return "lc";
    case NP_H_PDB: return "pdb";
    }
    return "?";
}

int np_h_manhattan(const np_board *b, const np_geom *g)
{
    return np_board_manhattan(b, g);
}

int np_lc_keys(const int8_t *keys, int len)
{
    /* Tiles whose goal cell lies on this line must end up in the order of their
     * goal positions; every tile outside a longest increasing subsequence of
     * those positions has to step off the line and back (2 moves that Manhattan
     * distance does not count). */
    int8_t seq[NP_MAX_SIDE];
    int m = 0;
    for (int i = 0; i < len; i++)
        if (keys[i] >= 0)
            seq[m++] = keys[i];
    if (m < 2)
        return 0;
    int lis[NP_MAX_SIDE];
    int best = 0;
    for (int i = 0; i < m; i++) {
        lis[i] = 1;
        for (int j = 0; j < i; j++)
            if (seq[j] < seq[i] && lis[j] + 1 > lis[i])
                lis[i] = lis[j] + 1;
        if (lis[i] > best)
            best = lis[i];
    }
    return 2 * (m - best);
}

int np_lc_line(const uint8_t *tiles, int len, const int8_t *key)
{
    int8_t keys[NP_MAX_SIDE];
    for (int i = 0; i < len; i++)
        keys[i] = tiles[i] ? key[tiles[i]] : -1;
    return np_lc_keys(keys, len);
}

int np_h_linear_conflict(const np_board *b, const np_geom *g)
{
    int h = np_board_manhattan(b, g);
    uint8_t line[NP_MAX_SIDE];
    int8_t key[NP_MAX_CELLS];
    for (int r = 0; r < g->rows; r++) {
        for (int t = 0; t < g->cells; t++)
            key[t] = (int8_t)(t && g->home[t] / g->cols == r ? g->home[t] % g->cols : -1);
        for (int k = 0; k < g->cols; k++)
            line[k] = b->tiles[r * g->cols + k];
        h += np_lc_line(line, g->cols, key);
    }
    for (int k = 0; k < g->cols; k++) {
        for (int t = 0; t < g->cells; t++)
            key[t] = (int8_t)(t && g->home[t] % g->cols == k ? g->home[t] / g->cols : -1);
        for (int r = 0; r < g->rows; r++)
            line[r] = b->tiles[r * g->cols + k];
        h += np_lc_line(line, g->rows, key);
    }
    return h;
}

/* ---- additive pattern databases ----------------------------------------- */

/* Copy pattern p's payload into private memory backed by 2 MiB pages where
 * the kernel allows (transparent huge pages, madvise mode). The lookups are
 * random over hundreds of MiB: with 4 KiB pages nearly every one misses the
 * TLB as well as the cache, and on a virtual machine a page walk is costly. */
static int copy_to_huge_pages(np_pdbset *set, int p, char *err, size_t errlen)
{
    const size_t huge = (size_t)2 << 20;
    size_t len = (size_t)np_pdb_payload_bytes(set->view[p].encoding, set->view[p].entries);
    size_t alloc = (len + huge - 1) & ~(huge - 1);
    void *mem = NULL;
    if (posix_memalign(&mem, huge, alloc) != 0) {
        snprintf(err, errlen, "%s: no memory for a private copy of the table (%zu bytes)",
                 np_pdb_path(set->pdb[p]), alloc);
        return NP_ENOMEM;
    }
#ifdef MADV_HUGEPAGE
    (void)madvise(mem, alloc, MADV_HUGEPAGE); /* a hint: without it, 4 KiB pages */
#endif
    memcpy(mem, set->view[p].payload, len);
    set->copy[p] = mem;
    set->view[p].payload = mem;
    return NP_OK;
}

int np_pdbset_open(np_pdbset **out, const np_geom *g, const np_partition *part, const char *dir,
                   unsigned flags, char *err, size_t errlen)
{
    *out = NULL;
    if (part->rows != g->rows || part->cols != g->cols || !np_partition_covers(part)) {
        snprintf(err, errlen, "partition %s does not cover every tile of a %dx%d board", part->name,
                 g->rows, g->cols);
        return NP_EINVAL;
    }
    np_pdbset *set = calloc(1, sizeof *set);
    if (!set)
        return np__fail(NP_ENOMEM, err, errlen, "out of memory opening the tables in %s", dir);
    set->g = *g;
    set->part = *part;
    set->npat = part->npatterns;
    memset(set->pat_of, -1, sizeof set->pat_of);
    int rc = NP_OK;
    for (int p = 0; p < set->npat && rc == NP_OK; p++) {
        const np_pattern *pat = &part->patterns[p];
        for (int j = 0; j < pat->ntiles; j++) {
            set->pat_of[pat->tiles[j]] = (int8_t)p;
            set->slot_of[pat->tiles[j]] = (int8_t)j;
        }
        char name[256], path[4096];
        np_pdb_filename(name, sizeof name, g, pat->tiles, pat->ntiles);
        if (snprintf(path, sizeof path, "%s/%s", dir, name) >= (int)sizeof path) {
            snprintf(err, errlen, "%s/%s: path too long", dir, name);
            rc = NP_EINVAL;
            break;
        }
        np_pdb_expect expect = {g->rows, g->cols, (int)g->goal, pat->ntiles, pat->tiles};
        rc = np_pdb_open(&set->pdb[p], path, &expect, err, errlen);
        if (rc != NP_OK)
            break;
        set->view[p] = np_pdb_get_view(set->pdb[p]);
        if (flags & NP_PDBSET_PRIVATE_COPY) {
            rc = copy_to_huge_pages(set, p, err, errlen);
            if (rc != NP_OK)
                break;
        }
        set->ranker[p] = malloc(sizeof(np_ranker));
        if (!set->ranker[p]) {
            rc = np__fail(NP_ENOMEM, err, errlen, "%s: out of memory", path);
            break;
        }
        np_ranker_init(set->ranker[p], g->cells, pat->ntiles);
        if (set->ranker[p]->count != set->view[p].entries) {
            snprintf(err, errlen, "%s: %llu entries, pattern needs %llu", path,
                     (unsigned long long)set->view[p].entries, (unsigned long long)set->ranker[p]->count);
            rc = NP_EMISMATCH;
        }
    }
    if (rc != NP_OK) {
        np_pdbset_free(set);
        return rc;
    }
    *out = set;
    return NP_OK;
}

void np_pdbset_free(np_pdbset *set)
{
    if (!set)
        return;
    for (int p = 0; p < NP_PARTITION_MAX; p++) {
        if (set->pdb[p])
            np_pdb_close(set->pdb[p]);
        free(set->copy[p]);
        free(set->ranker[p]);
    }
    free(set);
}

int np_pdbset_verify(const np_pdbset *set, char *err, size_t errlen)
{
    for (int p = 0; p < set->npat; p++) {
        int rc = np_pdb_verify(set->pdb[p], err, errlen);
        if (rc != NP_OK)
            return rc;
    }
    return NP_OK;
}

const np_partition *np_pdbset_partition(const np_pdbset *set)
{
    return &set->part;
}

/* Sum of the lookups of the board whose tile t stands on cell pos[t]. */
static int pdb_sum(const np_pdbset *set, const uint8_t *pos)
{
    const np_geom *g = &set->g;
    int h = 0;
    for (int p = 0; p < set->npat; p++) {
        const np_pattern *pat = &set->part.patterns[p];
        uint8_t labels[NP_PATTERN_MAX_TILES]; /* the tables rank cell labels */
        int md = 0;
        for (int j = 0; j < pat->ntiles; j++) {
            const int c = pos[pat->tiles[j]];
            labels[j] = g->label[c];
            md += g->dist[c][g->home[pat->tiles[j]]];
        }
        h += np__pdb_value(set, p, labels, md);
    }
    return h;
}

int np_h_pdb_plain(const np_pdbset *set, const np_board *b)
{
    uint8_t pos[NP_MAX_CELLS];
    for (int c = 0; c < set->g.cells; c++)
        pos[b->tiles[c]] = (uint8_t)c;
    return pdb_sum(set, pos);
}

int np_h_pdb(const np_pdbset *set, const np_board *b, bool no_reflect)
{
    int h = np_h_pdb_plain(set, b);
    if (!no_reflect && set->g.square) {
        np_board m;
        np_board_mirror(&m, b, &set->g);
        int hr = np_h_pdb_plain(set, &m);
        if (hr > h)
            h = hr;
    }
    return h;
}
