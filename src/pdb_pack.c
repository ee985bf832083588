/* pdb_pack.c - the 4-bit encoding: nibbles of (value - Manhattan distance) / 2 in index order,
 * packed, and read back by the histogram.
 *
 * np_pdb_histogram lives here rather than with the mapping (pdb_file.c): for a
 * 4-bit table it is a decoder, walking the same Manhattan distances as the
 * packer, so md_iter stays private to this file and inlined in both hot loops;
 * it reads the open file through the public accessors only.
 */
#include "pdb_pack_internal.h"

#include <omp.h>
#include <string.h>

#include "npuzzle/error.h"
#include "npuzzle/pdb_file.h"

#define BLOCK_ENTRIES (1u << 16) /* entries per OpenMP work item (even) */

/* ---- Manhattan distance of every placement, in index order ---------------- */

/* Walks indices start, start+1, ... (np_rank_iter, rank.h) keeping the
 * pattern's Manhattan distance: each tile's part is kept, and a step that
 * moves tiles 0 .. m-1 (usually m = 1) reads m distances. */
typedef struct md_iter {
    np_rank_iter it;
    int md;
    const uint8_t (*dist)[NP_MAX_CELLS];
    uint8_t home[NP_RANK_MAX_K];
    uint8_t part[NP_RANK_MAX_K]; /* tile j's distance from home */
} md_iter;

static void md_iter_init(md_iter *w, const np_ranker *r, const np_geom *g, const uint8_t *tiles,
                         uint64_t start)
{
    np_rank_iter_init(&w->it, r, start);
    w->dist = g->dist;
    w->md = 0;
    for (int j = 0; j < r->k; j++) {
        w->home[j] = g->home[tiles[j]];
        w->part[j] = w->dist[w->it.cell[j]][w->home[j]];
        w->md += w->part[j];
    }
}

static inline int md_iter_md(const md_iter *w)
{
    return w->md;
}

static inline void md_iter_next(md_iter *w)
{
    const int moved = np_rank_iter_next(&w->it);
    for (int j = 0; j < moved; j++) {
        const uint8_t d = w->dist[w->it.cell[j]][w->home[j]];
        w->md += d - w->part[j];
        w->part[j] = d;
    }
}

static int thread_count(int threads)
{
    return threads > 0 ? threads : omp_get_max_threads();
}

/* The largest value, the first that does not fit, and the nibbles on the way
 * (pdb_pack_internal.h). Blocks hold an even number of entries: no two threads
 * write the same byte. */
void np__pdb_scan_values(const np_ranker *r, const np_geom *g, const uint8_t *tiles,
                         const uint8_t *values, uint64_t entries, bool check4, uint8_t *packed,
                         int threads, int *max_value, uint64_t *first_bad)
{
    uint64_t nblocks = (entries + BLOCK_ENTRIES - 1) / BLOCK_ENTRIES;
    uint64_t bad = UINT64_MAX;
    int maxv = 0;
    /* clang-format off */
#pragma omp parallel for num_threads(thread_count(threads)) schedule(dynamic, 16) \
    reduction(min : bad) reduction(max : maxv)
    /* clang-format on */
    for (uint64_t b = 0; b < nblocks; b++) {
        uint64_t lo = b * BLOCK_ENTRIES,
                 hi = lo + BLOCK_ENTRIES < entries ? lo + BLOCK_ENTRIES : entries;
        for (uint64_t i = lo; i < hi; i++)
            if (values[i] > maxv)
                maxv = values[i];
        if (!check4 || bad < lo)
            continue;
        md_iter it;
        md_iter_init(&it, r, g, tiles, lo);
        for (uint64_t i = lo; i < hi; i++, md_iter_next(&it)) {
            int d = values[i] - md_iter_md(&it);
            if (d < 0 || d > 30 || (d & 1)) {
                if (i < bad)
                    bad = i;
                break;
            }
            if (!packed)
                continue;
            if (i & 1)
                packed[i >> 1] |= (uint8_t)((d >> 1) << 4);
            else
                packed[i >> 1] = (uint8_t)(d >> 1);
        }
    }
    *max_value = maxv;
    *first_bad = bad;
}

/* Encode entries [lo, lo + n): without `gain` as nibbles into out[0 ..
 * (n+1)/2) (lo even), with it as bytes, the nibble | gain << 4, into
 * out[0 .. n). */
static void pack_entries(const np_ranker *r, const np_geom *g, const uint8_t *tiles,
                         const uint8_t *values, const uint8_t *gain, uint64_t lo, uint64_t n,
                         uint8_t *out, int threads)
{
    uint64_t nblocks = (n + BLOCK_ENTRIES - 1) / BLOCK_ENTRIES;
#pragma omp parallel for num_threads(thread_count(threads)) schedule(static)
    for (uint64_t b = 0; b < nblocks; b++) {
        uint64_t a = b * BLOCK_ENTRIES, e = a + BLOCK_ENTRIES < n ? a + BLOCK_ENTRIES : n;
        md_iter it;
        md_iter_init(&it, r, g, tiles, lo + a);
        for (uint64_t i = a; i < e; i++, md_iter_next(&it)) {
            unsigned nib = (unsigned)(values[lo + i] - md_iter_md(&it)) >> 1;
            if (gain)
                out[i] = (uint8_t)(nib | (gain[lo + i] & 15u) << 4);
            else if (i & 1)
                out[i >> 1] |= (uint8_t)(nib << 4);
            else
                out[i >> 1] = (uint8_t)nib;
        }
    }
}

void np__pdb_pack4(const np_ranker *r, const np_geom *g, const uint8_t *tiles,
                   const uint8_t *values, uint64_t lo, uint64_t n, uint8_t *out, int threads)
{
    pack_entries(r, g, tiles, values, NULL, lo, n, out, threads);
}

void np__pdb_pack_za(const np_ranker *r, const np_geom *g, const uint8_t *tiles,
                     const uint8_t *values, const uint8_t *gain, uint64_t lo, uint64_t n,
                     uint8_t *out, int threads)
{
    pack_entries(r, g, tiles, values, gain, lo, n, out, threads);
}

/* ---- reading back: the value histogram ------------------------------------- */

int np_pdb_histogram(const np_pdb *pdb, const np_geom *g, uint64_t hist[256], int threads)
{
    memset(hist, 0, 256 * sizeof hist[0]);
    const np_pdb_header *h = np_pdb_get_header(pdb);
    if (g->rows != h->rows || g->cols != h->cols || g->goal != h->goal)
        return NP_EMISMATCH;
    np_ranker r;
    if (np_ranker_init(&r, g->cells, h->ntiles) != NP_OK)
        return NP_EINVAL;
    np_geom labelled; /* entries are indexed by cell labels (board.h) */
    if (np_geom_labelled(g, &labelled) != NP_OK)
        return NP_EINVAL;
    g = &labelled;
    const uint8_t *p = np_pdb_payload(pdb);
    uint64_t entries = h->entries, nblocks = (entries + BLOCK_ENTRIES - 1) / BLOCK_ENTRIES;
    const np_pdb_view view = np_pdb_get_view(pdb);
    bool four = h->encoding == NP_PDB_ENC_4BIT || h->encoding == NP_PDB_ENC_ZA;
#pragma omp parallel num_threads(thread_count(threads))
    {
        uint64_t local[256] = {0};
#pragma omp for schedule(dynamic, 16)
        for (uint64_t b = 0; b < nblocks; b++) {
            uint64_t lo = b * BLOCK_ENTRIES,
                     hi = lo + BLOCK_ENTRIES < entries ? lo + BLOCK_ENTRIES : entries;
            if (!four) {
                for (uint64_t i = lo; i < hi; i++)
                    local[p[i]]++;
                continue;
            }
            md_iter it;
            md_iter_init(&it, &r, g, h->tiles, lo);
            for (uint64_t i = lo; i < hi; i++, md_iter_next(&it)) {
                int v = np_pdb_view_value(&view, i, md_iter_md(&it));
                local[v < 256 ? v : 255]++;
            }
        }
#pragma omp critical
        for (int v = 0; v < 256; v++)
            hist[v] += local[v];
    }
    return NP_OK;
}
