/* pdb_gen.c - additive pattern databases by level-synchronous parallel BFS (see pdb_gen.h).
 *
 * State index layout. A state is (placement, blank region). A placement is
 * (comb, perm): comb ranks the set of occupied cells and perm the order of the
 * tiles on them (gen_index.h). While the BFS runs, placements are numbered
 * comb * k! + perm (cell-set-major, like the states); the finished table is
 * renumbered into np_rank()'s index at the end (to_rank_index). The free
 * cells of a cell set split into nreg(comb) connected regions, numbered in
 * the order of their smallest cell. States are numbered
 *
 *     state = (base[comb] + region) * k! + perm,   base[] = prefix sums of nreg()
 *
 * so the k! states of one (cell set, region) "unit" are contiguous, and a
 * unit's moves (which tile slot moves to which free cell) are the same for all
 * its k! orders. Each state has a 2-bit code in a bit array.
 *
 * Codes: 0 = not reached; at level d the frontier has code (d & 1) + 1, states
 * reached from it get the other of {1, 2}, and a frontier state becomes 3
 * (closed) once expanded. Alternating 1/2 with a separate "closed" code keeps
 * old states from ever looking like a frontier again.
 */
#include "npuzzle/pdb_gen.h"

#include <omp.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "npuzzle/error.h"
#include "npuzzle/rank.h"
#include "npuzzle/sys.h"
#include "gen_index.h"

#define VALUE_UNSET 0xFF
#define VALUE_MAX 254
#define EVEN_BITS UINT64_C(0x5555555555555555)

/* ---- cell sets and blank regions ---------------------------------------- */

static int check_pattern(const np_geom *g, const uint8_t *tiles, int ntiles)
{
    if (!g || !tiles || ntiles < 1 || ntiles > g->cells - 3 || !np_geom_row_major(g))
        return NP_EINVAL;
    uint64_t seen = 0;
    for (int i = 0; i < ntiles; i++) {
        if (tiles[i] < 1 || tiles[i] >= g->cells || (seen >> tiles[i] & 1))
            return NP_EINVAL;
        seen |= UINT64_C(1) << tiles[i];
    }
    return NP_OK;
}

/* Above this many cell sets the per-set tables are out of the question; the
 * estimate then counts one region per set (a lower bound) without labelling. */
#define MAX_LABELLED_SETS (UINT64_C(1) << 28)

int np_pdb_gen_estimate_for(np_pdb_gen_estimate *est, const np_geom *g, const uint8_t *tiles,
                            int ntiles)
{
    if (!est)
        return NP_EINVAL;
    memset(est, 0, sizeof *est);
    int rc = check_pattern(g, tiles, ntiles);
    if (rc != NP_OK)
        return rc;
    np_ranker r;
    np__gen_index gx;
    if (ntiles > NP_RANK_MAX_K || np_ranker_init(&r, g->cells, ntiles) != NP_OK ||
        np__gen_index_init(&gx, g->cells, ntiles) != NP_OK)
        return NP_ETOOBIG;
    int n = g->cells;
    uint64_t regions = gx.ncombs;
    if (gx.ncombs <= MAX_LABELLED_SETS) {
        regions = 0;
        uint8_t region[NP_MAX_CELLS];
        uint64_t adj[NP_MAX_CELLS];
        np__region_adjacency(g, adj);
        uint64_t m = (UINT64_C(1) << ntiles) - 1;
        for (uint64_t c = 0; c < gx.ncombs; c++, m = np__next_subset(m))
            regions += (uint64_t)np__label_regions_adj(adj, n, m, region);
    }
    est->entries = r.count;
    est->cell_sets = gx.ncombs;
    est->regions = regions;
    est->table_bytes = r.count;
    if (regions > UINT64_MAX / gx.kfact) {
        est->states = UINT64_MAX;
        est->work_bytes = UINT64_MAX;
    } else {
        est->states = regions * gx.kfact;
        /* code bits + per-set tables (mask, base, region map) + order tables
         * during the BFS; then a second table for the final reordering */
        uint64_t lfact = gx.fact[np__suffix_len(ntiles)];
        est->work_bytes = (est->states + 31) / 32 * 8 + gx.ncombs * (8 + 8 + 2 + (uint64_t)n) + 8 +
            (gx.kfact / lfact + lfact) * sizeof(np__perm_part);
        if (est->work_bytes < est->table_bytes)
            est->work_bytes = est->table_bytes;
    }
    est->available = np_mem_available();
    return NP_OK;
}

/* ---- shared state and the per-entry updates ------------------------------ */

typedef struct gen_ctx {
    const np_geom *g;
    int n, k;
    uint64_t kfact;
    uint64_t w[NP_RANK_MAX_K]; /* w[j] = (k-1-j)! */
    np__gen_index gx;
    np_ranker ranker; /* the final index (rank.h) */
    uint64_t ncombs;
    uint64_t *mask;        /* [ncombs] occupied cells of each set */
    uint64_t *base;        /* [ncombs + 1] first unit of each set */
    uint8_t *region;       /* [ncombs * n] region of each free cell, NP__NO_REGION if occupied */
    int l;                 /* suffix length, see np__perm_part */
    uint64_t lfact;        /* l! */
    np__perm_part *hi_tab; /* [k! / l!] */
    np__perm_part *lo_tab; /* [l!] */
    uint64_t *codes;       /* 2 bits per state */
    uint8_t *active[2];    /* [code - 1][comb]: the set has states with that code */
    uint8_t *values;       /* the output, one byte per placement */
    uint8_t *at_min;       /* NULL, or per placement the regions (< NP_PDB_GAIN_REGIONS)
                            * reached at its value's depth */
} gen_ctx;

/* Claim a state for the next frontier: set its code to `code` if it is 0.
 *
 * Memory order: relaxed is enough. Within a level the only writes to `codes`
 * are 0 -> next-code (this CAS) and frontier -> closed (close_frontier), each
 * an atomic RMW on the whole 64-bit word, so concurrent updates of different
 * states in one word never lose each other, and the CAS makes exactly one
 * thread win a given state (exact counts). No other data is published through
 * the code, and everything written in a level is read only in later levels,
 * after the OpenMP barrier that ends the level (which orders it). The plain
 * load first skips the locked instruction for the common already-seen case. */
static inline bool state_claim(uint64_t *codes, uint64_t idx, uint64_t code)
{
    uint64_t *word = &codes[idx >> 5];
    unsigned shift = (unsigned)(idx & 31) * 2;
    uint64_t old = __atomic_load_n(word, __ATOMIC_RELAXED);
    do {
        if (old >> shift & 3)
            return false;
    } while (!__atomic_compare_exchange_n(word, &old, old | code << shift, true, __ATOMIC_RELAXED,
                                          __ATOMIC_RELAXED));
    return true;
}

/* Record a placement's value when it is first reached. All writers in a level
 * write the same depth, and a byte only ever goes from VALUE_UNSET to a depth;
 * the relaxed CAS makes one winner so the placement is counted once. Ordering
 * with later levels comes from the level barrier, as above. */
static inline bool value_claim(uint8_t *values, uint64_t idx, uint8_t depth)
{
    uint8_t old = __atomic_load_n(&values[idx], __ATOMIC_RELAXED);
    if (old != VALUE_UNSET)
        return false;
    return __atomic_compare_exchange_n(&values[idx], &old, depth, false, __ATOMIC_RELAXED,
                                       __ATOMIC_RELAXED);
}

/* A state of placement place_base + perm was reached at `depth`: when that is
 * the placement's value (its least depth; the value is set by now, by this
 * thread or another of this level, all writing the same depth), its region is
 * one at the minimum. */
static inline void note_at_min(const gen_ctx *cx, uint64_t state_base, uint64_t place_base,
                               uint64_t perm, uint8_t depth)
{
    const uint64_t reg = state_base / cx->kfact - cx->base[place_base / cx->kfact];
    if (reg < NP_PDB_GAIN_REGIONS &&
        __atomic_load_n(&cx->values[place_base + perm], __ATOMIC_RELAXED) == depth)
        __atomic_fetch_or(&cx->at_min[place_base + perm], (uint8_t)(1u << reg), __ATOMIC_RELAXED);
}

/* Hands out consecutive index blocks [lo, hi) to the threads of a team: the
 * dynamic schedule of the level loop. */
typedef struct block_dispenser {
    uint64_t next, end, step;
} block_dispenser;

static inline bool dispense(block_dispenser *bd, uint64_t *lo, uint64_t *hi)
{
    uint64_t a = __atomic_fetch_add(&bd->next, bd->step, __ATOMIC_RELAXED);
    if (a >= bd->end)
        return false;
    *lo = a;
    *hi = a + bd->step < bd->end ? a + bd->step : bd->end;
    return true;
}

/* One move available to every state of a unit: the tile in sorted slot
 * `from` steps into a free cell of the blank's region; in the new cell set it
 * is in slot `to`. */
typedef struct unit_move {
    int from, to;
    uint64_t state_base; /* first state of the successor unit */
    uint64_t place_base; /* first placement of the successor cell set */
    uint8_t *active;     /* the successor cell set's flag for the next level */
} unit_move;

/* The moves of unit (comb, reg). @return how many (at most 4k). */
static int unit_moves(const gen_ctx *cx, uint64_t comb, int reg, uint8_t *next_active,
                      unit_move *mv)
{
    int n = cx->n, nm = 0;
    uint64_t mask = cx->mask[comb];
    const uint8_t *region = cx->region + comb * (uint64_t)n;
    uint64_t rest = mask;
    for (int j = 0; rest; j++, rest &= rest - 1) {
        int c = __builtin_ctzll(rest);
        for (int d = 0; d < 4; d++) {
            int x = cx->g->nbr[c][d];
            if (x < 0 || region[x] != reg)
                continue;
            uint64_t nmask = mask ^ (UINT64_C(1) << c) ^ (UINT64_C(1) << x);
            uint64_t ncomb = np__comb_rank(&cx->gx, nmask);
            int nreg = cx->region[ncomb * (uint64_t)n + (uint64_t)c];
            mv[nm].from = j;
            mv[nm].to = __builtin_popcountll(nmask & ((UINT64_C(1) << x) - 1));
            mv[nm].state_base = (cx->base[ncomb] + (uint64_t)nreg) * cx->kfact;
            mv[nm].place_base = ncomb * cx->kfact;
            mv[nm].active = next_active + ncomb;
            nm++;
        }
    }
    return nm;
}

typedef struct level_counts {
    uint64_t states, placements;
} level_counts;

/* Expand every frontier state of unit (comb, reg). */
static void expand_unit(const gen_ctx *cx, uint64_t comb, int reg, uint64_t frontier, uint64_t next,
                        uint8_t depth, uint8_t *next_active, level_counts *cnt)
{
    uint64_t new_states = 0, new_places = 0; /* locals: codes[] could alias *cnt */
    uint64_t w[NP_RANK_MAX_K];
    memcpy(w, cx->w, sizeof w);
    uint64_t kf = cx->kfact;
    uint64_t first = (cx->base[comb] + (uint64_t)reg) * kf, last = first + kf;
    uint64_t pattern = frontier == 1 ? EVEN_BITS : EVEN_BITS << 1;
    unit_move mv[4 * NP_RANK_MAX_K];
    int nm = -1;
    np__perm_cursor pc;
    uint64_t lf = cx->lfact, hi = 0, hi_first = 0; /* hi block of the cursor: [hi_first, +lf) */
    uint64_t *codes = cx->codes;
    for (uint64_t wi = first >> 5; wi <= (last - 1) >> 5; wi++) {
        uint64_t x = __atomic_load_n(&codes[wi], __ATOMIC_RELAXED) ^ pattern;
        uint64_t hits = ~(x | x >> 1) & EVEN_BITS; /* low bit of each code == frontier */
        uint64_t lo = wi << 5;
        if (lo < first)
            hits &= ~UINT64_C(0) << ((first - lo) * 2);
        if (lo + 32 > last)
            hits &= ~(~UINT64_C(0) << ((last - lo) * 2));
        if (!hits)
            continue;
        if (nm < 0)
            nm = unit_moves(cx, comb, reg, next_active, mv);
        for (uint64_t h = hits; h; h &= h - 1) {
            uint64_t perm = lo + (uint64_t)(__builtin_ctzll(h) >> 1) - first;
            while (perm >= hi_first + lf) { /* hits come in increasing order */
                hi++;
                hi_first += lf;
            }
            np__cursor_combine(&pc, &cx->hi_tab[hi], &cx->lo_tab[perm - hi_first], cx->k, cx->l,
                               perm);
            for (int m = 0; m < nm; m++) {
                uint64_t np = mv[m].from == mv[m].to
                    ? perm
                    : np__perm_after_move(&pc, w, mv[m].from, mv[m].to);
                if (state_claim(codes, mv[m].state_base + np, next)) {
                    new_states++;
                    /* Racy but idempotent flag (relaxed byte store): read
                     * only after the level's barrier. Testing first keeps
                     * the line shared between threads. */
                    if (!__atomic_load_n(mv[m].active, __ATOMIC_RELAXED))
                        __atomic_store_n(mv[m].active, 1, __ATOMIC_RELAXED);
                    if (value_claim(cx->values, mv[m].place_base + np, depth))
                        new_places++;
                    if (cx->at_min)
                        note_at_min(cx, mv[m].state_base, mv[m].place_base, np, depth);
                }
            }
        }
        /* Close the expanded states: frontier code | 3 == 3. */
        __atomic_fetch_or(&codes[wi], hits | hits << 1, __ATOMIC_RELAXED);
    }
    cnt->states += new_states;
    cnt->placements += new_places;
}

/* ---- driver --------------------------------------------------------------- */

/* Renumber the finished table from the BFS's (comb * k! + perm) into
 * np_rank()'s index. For a fixed order the index is a dot product of the
 * set's sorted cells with a vector, less a constant (np_rank_linear). The
 * orders go in blocks of PERM_BLOCK: a thread builds one block's vectors,
 * then reads each cell set's PERM_BLOCK neighbouring entries and scatters
 * them. */
#define PERM_BLOCK 64
static int to_rank_index(uint8_t **values, const np__gen_index *gx, const np_ranker *ranker,
                         int threads)
{
    const int k = gx->k;
    const uint64_t ncombs = gx->ncombs, kfact = gx->kfact;
    const uint8_t *in = *values;
    uint8_t *out = malloc((size_t)(ncombs * kfact));
    if (!out)
        return NP_ENOMEM;
    long nblocks = (long)((kfact + PERM_BLOCK - 1) / PERM_BLOCK);
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1)
    for (long b = 0; b < nblocks; b++) {
        const uint64_t q0 = (uint64_t)b * PERM_BLOCK;
        const int nq = kfact - q0 < PERM_BLOCK ? (int)(kfact - q0) : PERM_BLOCK;
        uint64_t w[NP_RANK_MAX_K][PERM_BLOCK], off[PERM_BLOCK];
        for (int q = 0; q < nq; q++) {
            np__perm_cursor pc;
            uint64_t coef[NP_RANK_MAX_K];
            np__cursor_set(&pc, k, q0 + (uint64_t)q);
            np_rank_linear(ranker, pc.order, coef, &off[q]);
            for (int p = 0; p < k; p++)
                w[p][q] = coef[p];
        }
        uint64_t mask = (UINT64_C(1) << k) - 1;
        for (uint64_t c = 0; c < ncombs; c++, mask = np__next_subset(mask)) {
            uint64_t index[PERM_BLOCK];
            for (int q = 0; q < nq; q++)
                index[q] = -off[q]; /* unsigned: the sum comes back into range */
            uint64_t m = mask;
            for (int p = 0; p < k; p++, m &= m - 1) {
                const uint64_t cell = (uint64_t)__builtin_ctzll(m);
                for (int q = 0; q < nq; q++)
                    index[q] += cell * w[p][q];
            }
            const uint8_t *src = in + c * kfact + q0;
            for (int q = 0; q < nq; q++)
                out[index[q]] = src[q];
        }
    }
    free(*values);
    *values = out;
    return NP_OK;
}

static void gen_free(gen_ctx *cx)
{
    free(cx->mask);
    free(cx->base);
    free(cx->region);
    free(cx->codes);
    free(cx->hi_tab);
    free(cx->lo_tab);
    free(cx->active[0]);
    free(cx->active[1]);
}

int np_pdb_generate(uint8_t **out_values, uint64_t *out_entries, const np_geom *g,
                    const uint8_t *tiles, int ntiles, const np_pdb_gen_opts *opts)
{
    if (!out_values || !out_entries)
        return NP_EINVAL;
    *out_values = NULL;
    *out_entries = 0;
    np_pdb_gen_opts defaults = {0};
    if (!opts)
        opts = &defaults;
    if (opts->region_gain)
        *opts->region_gain = NULL;
    if (!g || !tiles)
        return NP_EINVAL;
    double t0 = np_clock();
    if (opts->goal_region) {
        /* a free cell with the pattern at home: not a home of the pattern's tiles */
        if (opts->goal_region < 0 || opts->goal_region > g->cells)
            return NP_EINVAL;
        for (int i = 0; i < ntiles; i++)
            if (tiles[i] < g->cells && g->home[tiles[i]] == opts->goal_region - 1)
                return NP_EINVAL;
    }

    np_pdb_gen_estimate est;
    int rc = np_pdb_gen_estimate_for(&est, g, tiles, ntiles);
    if (rc != NP_OK)
        return rc;
    /* the zero-aware part: one more byte per placement, through the BFS and
     * beside the finished table while it is renumbered */
    const uint64_t gain_bytes = opts->region_gain ? est.table_bytes : 0;
    uint64_t need = est.table_bytes + est.work_bytes + gain_bytes;
    if (est.work_bytes == UINT64_MAX || need < est.table_bytes + gain_bytes)
        return NP_ETOOBIG;
    if (opts->max_memory && need > opts->max_memory)
        return NP_ETOOBIG;
    if (est.available && need > est.available)
        return NP_ETOOBIG;
    if (need > SIZE_MAX / 2)
        return NP_ETOOBIG;

    /* From here on cells are labels (board.h): the BFS runs on the relabelled
     * board, so the table comes out indexed as lookups rank placements. */
    np_geom labelled;
    if (np_geom_labelled(g, &labelled) != NP_OK) /* checked in the estimate */
        return NP_EINVAL;
    const int goal_blank = opts->goal_region ? g->label[opts->goal_region - 1] : labelled.home[0];
    g = &labelled;

    gen_ctx cx;
    memset(&cx, 0, sizeof cx);
    cx.g = g;
    cx.n = g->cells;
    cx.k = ntiles;
    /* both succeeded in the estimate */
    np__gen_index_init(&cx.gx, cx.n, cx.k);
    np_ranker_init(&cx.ranker, cx.n, cx.k);
    cx.kfact = cx.gx.kfact;
    cx.ncombs = cx.gx.ncombs;
    for (int j = 0; j < cx.k; j++)
        cx.w[j] = cx.gx.fact[cx.k - 1 - j];

    uint64_t nstates = est.states;
    size_t ncodes = (size_t)((nstates + 31) / 32);
    cx.mask = malloc(cx.ncombs * sizeof *cx.mask);
    cx.base = malloc((cx.ncombs + 1) * sizeof *cx.base);
    cx.region = malloc(cx.ncombs * (size_t)cx.n);
    cx.codes = calloc(ncodes, sizeof *cx.codes);
    cx.l = np__suffix_len(cx.k);
    cx.lfact = cx.gx.fact[cx.l];
    cx.hi_tab = malloc((size_t)(cx.kfact / cx.lfact) * sizeof *cx.hi_tab);
    cx.lo_tab = malloc((size_t)cx.lfact * sizeof *cx.lo_tab);
    cx.active[0] = calloc(cx.ncombs, 1);
    cx.active[1] = calloc(cx.ncombs, 1);
    uint8_t *values = malloc((size_t)est.entries);
    if (opts->region_gain)
        cx.at_min = calloc((size_t)est.entries, 1);
    if (!cx.active[0] || !cx.active[1] || !cx.mask || !cx.base || !cx.region || !cx.codes ||
        !cx.hi_tab || !cx.lo_tab || !values || (opts->region_gain && !cx.at_min)) {
        free(values);
        free(cx.at_min);
        gen_free(&cx);
        return NP_ENOMEM;
    }

    for (uint64_t h = 0; h < cx.kfact / cx.lfact; h++) {
        np__perm_cursor pc;
        np__cursor_set(&pc, cx.k, h * cx.lfact); /* lo = 0: the last l slots ascending */
        memcpy(cx.hi_tab[h].order, pc.order, NP_RANK_MAX_K);
        memcpy(cx.hi_tab[h].digit, pc.digit, NP_RANK_MAX_K);
    }
    for (uint64_t lo = 0; lo < cx.lfact; lo++) {
        np__perm_cursor pc;
        np__cursor_set(&pc, cx.l, lo);
        memcpy(cx.lo_tab[lo].order, pc.order, NP_RANK_MAX_K);
        memset(cx.lo_tab[lo].digit, 0, NP_RANK_MAX_K);
        memcpy(cx.lo_tab[lo].digit + (cx.k - cx.l), pc.digit, (size_t)cx.l);
    }

    /* cppcheck-suppress unreadVariable ; read by the num_threads() clauses below */
    int threads = opts->threads > 0 ? opts->threads : omp_get_max_threads();

    /* Per-set tables, in rank order (Gosper's successor is the next rank). */
    uint64_t m = (UINT64_C(1) << cx.k) - 1, units = 0;
    uint64_t adj[NP_MAX_CELLS];
    np__region_adjacency(g, adj);
    for (uint64_t c = 0; c < cx.ncombs; c++, m = np__next_subset(m)) {
        cx.mask[c] = m;
        cx.base[c] = units;
        units += (uint64_t)np__label_regions_adj(adj, cx.n, m, cx.region + c * (size_t)cx.n);
    }
    cx.base[cx.ncombs] = units;
    if (units * cx.kfact != nstates) {
        /* The estimate sized the state codes; a larger real count (possible
         * only when the estimate had to guess, on enormous patterns) would
         * write past them. */
        gen_free(&cx);
        free(values);
        free(cx.at_min);
        return NP_ETOOBIG;
    }

    /* Fill in parallel: the first touch of half a gigabyte is not free. */
    size_t fill_block = (size_t)1 << 22;
    long nfill = (long)((est.entries + fill_block - 1) / fill_block);
#pragma omp parallel for num_threads(threads) schedule(static)
    for (long b = 0; b < nfill; b++) {
        size_t off = (size_t)b * fill_block;
        size_t len = est.entries - off < fill_block ? (size_t)(est.entries - off) : fill_block;
        memset(values + off, VALUE_UNSET, len);
    }
    cx.values = values;

    /* Depth 0: the goal placement with the blank in its home cell's region
     * (or the region opts->goal_region names). */
    uint8_t goal_cells[NP_RANK_MAX_K];
    uint64_t goal_mask = 0;
    for (int i = 0; i < cx.k; i++) {
        goal_cells[i] = g->home[tiles[i]];
        goal_mask |= UINT64_C(1) << goal_cells[i];
    }
    uint64_t goal_comb = np__comb_rank(&cx.gx, goal_mask);
    uint64_t goal_perm = np__perm_rank(&cx.gx, goal_cells, goal_mask);
    int goal_reg = cx.region[goal_comb * (size_t)cx.n + goal_blank];
    state_claim(cx.codes, (cx.base[goal_comb] + (uint64_t)goal_reg) * cx.kfact + goal_perm, 1);
    values[goal_comb * cx.kfact + goal_perm] = 0;
    if (cx.at_min && goal_reg < NP_PDB_GAIN_REGIONS)
        cx.at_min[goal_comb * cx.kfact + goal_perm] = (uint8_t)(1u << goal_reg);
    cx.active[0][goal_comb] = 1;

    np_pdb_gen_progress pr = {
        .depth = 0,
        .states_at_depth = 1,
        .states_reached = 1,
        .states_total = nstates,
        .placements_reached = 1,
        .placements_total = est.entries,
        .elapsed = np_clock() - t0,
    };
    if (opts->progress)
        opts->progress(opts->progress_ctx, &pr);

    /* About 64 K states per block handed out, whole cell sets each. */
    uint64_t sets_per_block = (UINT64_C(1) << 16) / cx.kfact;
    if (sets_per_block < 1)
        sets_per_block = 1;

    rc = NP_OK;
    for (int depth = 0;; depth++) {
        if (depth + 1 > VALUE_MAX) {
            rc = NP_EUNSUPPORTED;
            break;
        }
        uint64_t frontier = (uint64_t)(depth & 1) + 1, next = 3 - frontier;
        uint8_t *active = cx.active[frontier - 1], *next_active = cx.active[next - 1];
        block_dispenser bd = {.next = 0, .end = cx.ncombs, .step = sets_per_block};
        uint64_t new_states = 0, new_places = 0;
#pragma omp parallel num_threads(threads) reduction(+ : new_states, new_places)
        {
            level_counts cnt = {0, 0};
            uint64_t lo, hi;
            while (!(opts->cancel && *opts->cancel) && dispense(&bd, &lo, &hi))
                for (uint64_t c = lo; c < hi; c++) {
                    if (!active[c]) /* no frontier state in this cell set */
                        continue;
                    int nreg = (int)(cx.base[c + 1] - cx.base[c]);
                    for (int r = 0; r < nreg; r++)
                        expand_unit(&cx, c, r, frontier, next, (uint8_t)(depth + 1), next_active,
                                    &cnt);
                }
            new_states += cnt.states;
            new_places += cnt.placements;
        }
        if (opts->cancel && *opts->cancel) {
            rc = NP_EINTR;
            break;
        }
        memset(active, 0, (size_t)cx.ncombs); /* all of this level's frontier is closed */
        if (new_states == 0)
            break;
        pr.depth = depth + 1;
        pr.states_at_depth = new_states;
        pr.states_reached += new_states;
        pr.placements_reached += new_places;
        pr.elapsed = np_clock() - t0;
        if (opts->progress)
            opts->progress(opts->progress_ctx, &pr);
    }

    /* With the blank and at least two other non-pattern tiles, which are
     * interchangeable, the parity of the permutation constrains nothing: every
     * (placement, region) state is reachable, and one left unreached means a
     * bug -- never hand out a table with holes. */
    if (rc == NP_OK && (pr.placements_reached != est.entries || pr.states_reached != nstates))
        rc = NP_EUNSUPPORTED;
    /* The zero-aware part, in place: the regions not at the minimum, of those
     * a table tells apart. */
    uint8_t *gain = cx.at_min;
    if (rc == NP_OK && gain) {
#pragma omp parallel for num_threads(threads) schedule(static)
        for (long c = 0; c < (long)cx.ncombs; c++) {
            const uint64_t nreg = cx.base[c + 1] - cx.base[c];
            const uint8_t all =
                (uint8_t)((1u << (nreg < NP_PDB_GAIN_REGIONS ? nreg : NP_PDB_GAIN_REGIONS)) - 1);
            uint8_t *e = gain + (uint64_t)c * cx.kfact;
            for (uint64_t p = 0; p < cx.kfact; p++)
                e[p] = (uint8_t)(all & ~e[p]);
        }
    }
    gen_free(&cx);
    if (rc == NP_OK)
        rc = to_rank_index(&values, &cx.gx, &cx.ranker, threads);
    if (rc == NP_OK && gain)
        rc = to_rank_index(&gain, &cx.gx, &cx.ranker, threads);
    if (rc != NP_OK) {
        free(values);
        free(gain);
        return rc;
    }
    *out_values = values;
    *out_entries = est.entries;
    if (opts->region_gain)
        *opts->region_gain = gain;
    return NP_OK;
}

int np_pdb_goal_regions(const np_geom *g, const uint8_t *tiles, int ntiles, int *goal_regions,
                        int8_t *cell_region)
{
    bool blocked[NP_MAX_CELLS] = {false};
    int8_t region[NP_MAX_CELLS];
    memset(region, -1, sizeof region);
    for (int i = 0; i < ntiles; i++)
        blocked[g->home[tiles[i]]] = true;
    int n = 0;
    /* the blank home's region first (0), then the others in the order of
     * their least cell (1, 2, ...) */
    for (int pass = 0; pass < 2; pass++)
        for (int c0 = pass ? 0 : g->home[0]; c0 < (pass ? g->cells : g->home[0] + 1); c0++) {
            if (blocked[c0] || region[c0] >= 0)
                continue;
            uint8_t queue[NP_MAX_CELLS];
            int head = 0, tail = 0;
            queue[tail++] = (uint8_t)c0;
            region[c0] = (int8_t)(pass ? n + 1 : 0);
            while (head < tail) {
                const int c = queue[head++];
                for (int d = 0; d < 4; d++) {
                    const int nb = g->nbr[c][d];
                    if (nb >= 0 && !blocked[nb] && region[nb] < 0) {
                        region[nb] = region[c0];
                        queue[tail++] = (uint8_t)nb;
                    }
                }
            }
            if (pass)
                goal_regions[n++] = c0 + 1;
        }
    if (cell_region)
        memcpy(cell_region, region, (size_t)g->cells);
    return n;
}

int np_pdb_dual_tables(const np_geom *g, const uint8_t *tiles, int ntiles, np_pdb_table_spec *out)
{
    int regions[NP_MAX_CELLS];
    const int nr = np_pdb_goal_regions(g, tiles, ntiles, regions, NULL);
    int n = 0;
    for (int k = 0; k < nr && k < NP_PDB_DUAL_REGIONS; k++) {
        memcpy(out[n].tiles, tiles, (size_t)ntiles);
        out[n].ntiles = ntiles;
        out[n++].goal_region = regions[k];
    }
    for (int j = 0; j < ntiles && ntiles > 1; j++) {
        np_pdb_table_spec *t = &out[n++];
        t->ntiles = 0;
        for (int i = 0; i < ntiles; i++)
            if (i != j)
                t->tiles[t->ntiles++] = tiles[i];
        /* the goal's blank on j's home: the region holding it, named by its least cell */
        int sub_regions[NP_MAX_CELLS];
        int8_t region[NP_MAX_CELLS];
        np_pdb_goal_regions(g, t->tiles, t->ntiles, sub_regions, region);
        const int k = region[g->home[tiles[j]]];
        t->goal_region = k > 0 ? sub_regions[k - 1] : 0;
    }
    return n;
}
