/* ida.c - the IDA* engine: one board, moves applied and undone in place. */
#include "npuzzle/ida.h"

#include <limits.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "npuzzle/error.h"
#include "npuzzle/sys.h"
#include "pdbset_internal.h"

const char *np_status_name(np_status s)
{
    switch (s) {
    case NP_STATUS_SOLVED: return "solved";
    case NP_STATUS_UNSOLVABLE: return "unsolvable";
    case NP_STATUS_LIMIT: return "limit";
    case NP_STATUS_ERROR: return "error";
    }
    return "?";
}

int np_solution_check(const np_board *start, const np_geom *g, const char *moves)
{
    np_board b = *start;
    if (np_board_apply_moves(&b, g, moves, NULL) != NP_OK)
        return NP_EINVAL;
    return np_board_is_goal(&b, g) ? NP_OK : NP_EINVAL;
}

/* ---- search state ------------------------------------------------------ */

enum { RUN = 0, FOUND = 1, STOPPED = 2 };

/* How often (in generated nodes) the clock, the node limit and the stop flag
 * are looked at: rare enough to cost nothing, often enough for a timeout to
 * be honoured within a few milliseconds. */
#define CHECK_EVERY (1u << 16)

/* What the threads searching one board share. */
typedef struct shared {
    int stop;                   /* set when a thread found a solution or a limit hit;
                                 * read and written with relaxed atomics: a flag, it
                                 * orders nothing else */
    uint64_t generated;         /* generated nodes reported at checks (atomic) */
    uint64_t max_nodes;
    double deadline;
    const volatile int *cancel;
} shared;

typedef struct search {
    uint8_t tiles[NP_MAX_CELLS];
    int blank;
    int bound;       /* current f bound (in weighted units when weighted) */
    int next_bound;  /* least f that exceeded the bound in this iteration */
    int stop;
    int length;
    int gw, hw;      /* f = gw*g + hw*h; 1,1 for optimal search */
    int side;        /* 4 or 5: the specialised kernels of those square boards; 0: general */
    uint64_t generated, expanded;
    uint64_t next_check, reported;
    shared *sh;
    const np_geom *g;
    /* mdd[t][c][d]: change of Manhattan distance when tile t, standing on
     * cell c, slides into the blank that moved to c in direction d. One
     * lookup per child instead of two distances. */
    int8_t mdd[NP_MAX_CELLS][NP_MAX_CELLS][4];
    int8_t nbr[NP_MAX_CELLS][4];
    uint8_t row_of[NP_MAX_CELLS], col_of[NP_MAX_CELLS]; /* no division in the loop */
    /* Linear conflict state. Each line has a code whose digits (base side+1)
     * are, cell by cell along the line, 1 + the goal position on the line of
     * the tile there, or 0 for the blank and tiles whose goal is off the line.
     * A move changes three codes by one digit each, in O(1); a table maps a
     * code to the line's conflict moves (computed from the digits when the
     * table would be too large, on 8-wide boards). */
    int32_t rowcode[NP_MAX_SIDE], colcode[NP_MAX_SIDE];
    int32_t rowpow[NP_MAX_SIDE], colpow[NP_MAX_SIDE];
    int8_t rowkey[NP_MAX_SIDE][NP_MAX_CELLS], colkey[NP_MAX_SIDE][NP_MAX_CELLS];
    uint8_t *rowtab, *coltab;
    bool own_tabs;
    /* PDB state: for every pattern, on the board and on its mirror, the
     * Manhattan sum of its tiles, its lookup and the two sums. A move changes
     * one pattern of each: only those are re-ranked. */
    const struct np_pdbset *pdbs;
    int psum, rsum;
    int pmd[NP_PARTITION_MAX], rmd[NP_PARTITION_MAX];
    int pval[NP_PARTITION_MAX], rval[NP_PARTITION_MAX];
    /* Each pattern's table index (rank.h) on the board and on its mirror. A
     * step of tile t from cell c into the blank in direction d moves the index
     * of t's pattern by np_rank_moved() with t's weight in it, the difference
     * of the two cells' labels, and the sum of pass[t][u] over the tiles u on
     * the cells btw[c][d], those whose labels lie strictly between (none on a
     * row, 0 to 2*side-2 cells vertically); the mirror's index likewise with
     * rweight, rpass and rbtw: there t's mirror tile moves. pass[t][u] is 0
     * for a tile u of another pattern and for the blank. */
    uint64_t pix[NP_PARTITION_MAX], rix[NP_PARTITION_MAX];
    uint64_t weight[NP_MAX_CELLS], rweight[NP_MAX_CELLS];
    int64_t pass[NP_MAX_CELLS][NP_MAX_CELLS], rpass[NP_MAX_CELLS][NP_MAX_CELLS];
    int8_t step[NP_MAX_CELLS][4], rstep[NP_MAX_CELLS][4];
    uint8_t nbtw[NP_MAX_CELLS][4], nrbtw[NP_MAX_CELLS][4];
    uint8_t btw[NP_MAX_CELLS][4][2 * NP_MAX_SIDE], rbtw[NP_MAX_CELLS][4][2 * NP_MAX_SIDE];
    int8_t rpat_of[NP_MAX_CELLS]; /* pattern of mirror_tile[t] */
    uint8_t path[NP_MAX_PATH];
} search;

/* Conflict moves of a line from its code (see struct search). */
static int code_conflicts(int32_t code, int base, int len)
{
    int8_t keys[NP_MAX_SIDE];
    for (int i = 0; i < len; i++) {
        keys[i] = (int8_t)(code % base - 1);
        code /= base;
    }
    return np_lc_keys(keys, len);
}

static inline int row_lc(const search *s, int32_t code)
{
    return s->rowtab ? s->rowtab[code] : code_conflicts(code, s->g->cols + 1, s->g->cols);
}

static inline int col_lc(const search *s, int32_t code)
{
    return s->coltab ? s->coltab[code] : code_conflicts(code, s->g->rows + 1, s->g->rows);
}

/* Table of conflicts for every code of a line of `len` cells, or NULL when it
 * would exceed 4 MiB (the caller then decodes). */
static uint8_t *conflict_table(int len)
{
    int64_t size = 1;
    for (int i = 0; i < len; i++)
        size *= len + 1;
    if (size > (1 << 22))
        return NULL;
    uint8_t *tab = malloc((size_t)size);
    if (tab)
        for (int64_t code = 0; code < size; code++)
            tab[code] = (uint8_t)code_conflicts((int32_t)code, len + 1, len);
    return tab;
}

static int check_limits(search *s)
{
    shared *sh = s->sh;
    uint64_t total = __atomic_add_fetch(&sh->generated, s->generated - s->reported, __ATOMIC_RELAXED);
    s->reported = s->generated;
    /* Look again after CHECK_EVERY nodes, or sooner when the node limit is
     * closer: a serial search then stops exactly at it. */
    uint64_t step = CHECK_EVERY;
    if (sh->max_nodes && total < sh->max_nodes && sh->max_nodes - total < step)
        step = sh->max_nodes - total;
    s->next_check = s->generated + step;
    if (__atomic_load_n(&sh->stop, __ATOMIC_RELAXED))
        return 1;
    if ((sh->max_nodes && total >= sh->max_nodes) || (sh->cancel && *sh->cancel) ||
        (sh->deadline > 0 && np_clock() >= sh->deadline)) {
        __atomic_store_n(&sh->stop, 1, __ATOMIC_RELAXED);
        return 1;
    }
    return 0;
}

/* One instantiation of the kernel per heuristic, with and without weights. */
enum { K_MD, K_LC, K_PDB, K_PDBR };

/* Kernel instantiations: heuristic x weighted x board side. The side is 4
 * or 5 for the 15- and 24-puzzle, where neighbours and the transpose are
 * computed from constants, and 0 for any other board (tables). */
#define NP_KERNEL_LIST(X) \
    X(md, K_MD, 0, 0) X(lc, K_LC, 0, 0) X(pdb, K_PDB, 0, 0) X(pdbr, K_PDBR, 0, 0) \
    X(md_w, K_MD, 1, 0) X(lc_w, K_LC, 1, 0) X(pdb_w, K_PDB, 1, 0) X(pdbr_w, K_PDBR, 1, 0) \
    X(md4, K_MD, 0, 4) X(lc4, K_LC, 0, 4) X(pdb4, K_PDB, 0, 4) X(pdbr4, K_PDBR, 0, 4) \
    X(md4_w, K_MD, 1, 4) X(lc4_w, K_LC, 1, 4) X(pdb4_w, K_PDB, 1, 4) X(pdbr4_w, K_PDBR, 1, 4) \
    X(md5, K_MD, 0, 5) X(lc5, K_LC, 0, 5) X(pdb5, K_PDB, 0, 5) X(pdbr5, K_PDBR, 0, 5) \
    X(md5_w, K_MD, 1, 5) X(lc5_w, K_LC, 1, 5) X(pdb5_w, K_PDB, 1, 5) X(pdbr5_w, K_PDBR, 1, 5)

#define NP_DECLARE_KERNEL(name, kind, weighted, side) static int dfs_##name(search *s, int depth, int h, int prev);
NP_KERNEL_LIST(NP_DECLARE_KERNEL)

/* The kernel for (kind, weighted, side); all three are constants at every call
 * site inside the kernel, so this folds to one direct call. */
static inline __attribute__((always_inline)) int
dfs_call(search *s, int depth, int h, int prev, const int kind, const int weighted, const int side)
{
#define NP_CALL_KERNEL(name, k, w, sd) \
    if (kind == (k) && weighted == (w) && side == (sd)) \
        return dfs_##name(s, depth, h, prev);
    NP_KERNEL_LIST(NP_CALL_KERNEL)
#undef NP_CALL_KERNEL
    return RUN;
}

/* Cell the blank reaches from `blank` moving in direction d, or -1. */
static inline __attribute__((always_inline)) int
neighbour(const search *s, int blank, int d, const int side)
{
    if (!side)
        return s->nbr[blank][d];
    switch (d) {
    case NP_UP: return blank >= side ? blank - side : -1;
    case NP_LEFT: return blank % side != 0 ? blank - 1 : -1;
    case NP_RIGHT: return blank % side != side - 1 ? blank + 1 : -1;
    default: return blank < side * (side - 1) ? blank + side : -1;
    }
}

/* The table index of pattern p, now `cur`, after a tile of weight w in it
 * steps `step` labels, passing the cells btw[0 .. nbtw) whose tiles add
 * pass[tile]; the entry is prefetched. */
static inline __attribute__((always_inline)) uint64_t
child_index(const search *s, int p, uint64_t cur, uint64_t w, int step, const int64_t *pass,
            const uint8_t *btw, int nbtw)
{
    int64_t passed = 0;
    for (int q = 0; q < nbtw; q++)
        passed += pass[s->tiles[btw[q]]];
    const uint64_t i = np_rank_moved(cur, w, step, passed);
    np__pdb_prefetch(s->pdbs, p, i);
    return i;
}

/* Expand one node whose f is within the bound and which is not the goal.
 * `kind` and `weighted` are compile-time constants in each instantiation, so
 * the Manhattan kernel carries no trace of the others. */
static inline __attribute__((always_inline)) int
dfs_node(search *s, int depth, int h, int prev, const int kind, const int weighted, const int side)
{
    if (__builtin_expect(s->generated >= s->next_check, 0) && check_limits(s)) {
        s->stop = STOPPED;
        return STOPPED;
    }
    if (__builtin_expect(depth >= NP_MAX_PATH, 0)) {
        s->stop = STOPPED;
        return STOPPED;
    }
    s->expanded++;
    const int blank = s->blank;
    const struct np_pdbset *pdbs = s->pdbs;
    uint64_t idx[4], ridx[4];
    if (kind == K_PDB || kind == K_PDBR) {
        /* Rank every child's changed pattern(s) first and prefetch the
         * entries: the table lookups are the cost of this search, and their
         * cache misses overlap this way instead of coming one at a time. */
        for (int d = 0; d < 4; d++) {
            const int nb = neighbour(s, blank, d, side);
            if (d == NP_DIR_OPPOSITE(prev) || nb < 0)
                continue;
            const int t = s->tiles[nb];
            const int p = pdbs->pat_of[t];
            idx[d] = child_index(s, p, s->pix[p], s->weight[t], s->step[nb][d], s->pass[t],
                                 s->btw[nb][d], s->nbtw[nb][d]);
            if (kind == K_PDBR) {
                const int rp = s->rpat_of[t];
                ridx[d] = child_index(s, rp, s->rix[rp], s->rweight[t], s->rstep[nb][d],
                                      s->rpass[t], s->rbtw[nb][d], s->nrbtw[nb][d]);
            }
        }
    }
    for (int d = 0; d < 4; d++) {
        if (d == NP_DIR_OPPOSITE(prev))
            continue;
        const int nb = neighbour(s, blank, d, side);
        if (nb < 0)
            continue;
        s->generated++;
        const int t = s->tiles[nb];
        const int dmd = s->mdd[t][nb][d];
        int nh = h + dmd;
        int saved0 = 0, saved1 = 0, line0 = 0, line1 = 0, along = 0, saved_along = 0;
        int p = 0, rp = 0, saved_val = 0, saved_rval = 0;
        bool refl = false;
        if (kind == K_LC) {
            /* A vertical move takes the tile from the blank's new row to its
             * old one; a horizontal move does the same with columns. The
             * other lines keep their tiles in the same order. */
            if (d == NP_UP || d == NP_DOWN) {
                line0 = (side ? blank / side : s->row_of[blank]);
                line1 = (side ? nb / side : s->row_of[nb]);
                along = (side ? blank % side : s->col_of[blank]);
                const int32_t w = s->rowpow[along];
                saved0 = s->rowcode[line0];
                saved1 = s->rowcode[line1];
                saved_along = s->colcode[along];
                s->rowcode[line0] = saved0 + (s->rowkey[line0][t] + 1) * w;
                s->rowcode[line1] = saved1 - (s->rowkey[line1][t] + 1) * w;
                nh += row_lc(s, s->rowcode[line0]) + row_lc(s, s->rowcode[line1]) -
                      row_lc(s, saved0) - row_lc(s, saved1);
                /* Along its column the tile only changes place with the blank:
                 * same conflicts, but the column's digits move. */
                s->colcode[along] += (s->colkey[along][t] + 1) * (s->colpow[line0] - s->colpow[line1]);
            } else {
                line0 = (side ? blank % side : s->col_of[blank]);
                line1 = (side ? nb % side : s->col_of[nb]);
                along = (side ? blank / side : s->row_of[blank]);
                const int32_t w = s->colpow[along];
                saved0 = s->colcode[line0];
                saved1 = s->colcode[line1];
                saved_along = s->rowcode[along];
                s->colcode[line0] = saved0 + (s->colkey[line0][t] + 1) * w;
                s->colcode[line1] = saved1 - (s->colkey[line1][t] + 1) * w;
                nh += col_lc(s, s->colcode[line0]) + col_lc(s, s->colcode[line1]) -
                      col_lc(s, saved0) - col_lc(s, saved1);
                s->rowcode[along] += (s->rowkey[along][t] + 1) * (s->rowpow[line0] - s->rowpow[line1]);
            }
        } else if (kind == K_PDB || kind == K_PDBR) {
            /* Only the pattern of the moved tile changes (and, reflected, the
             * pattern of its mirror tile); the mirror keeps Manhattan sums. */
            p = pdbs->pat_of[t];
            s->pmd[p] += dmd;
            saved_val = s->pval[p];
            s->pval[p] = np_pdb_view_value(&pdbs->view[p], idx[d], s->pmd[p]);
            s->psum += s->pval[p] - saved_val;
            nh = s->psum;
            /* The reflected sum can only raise h: skip it when the plain sum
             * already prunes this child (its f then stays a valid lower
             * bound for the next threshold). */
            refl = kind == K_PDBR &&
                   (weighted ? s->gw * (depth + 1) + s->hw * nh : depth + 1 + nh) <= s->bound;
            if (refl) {
                rp = s->rpat_of[t];
                s->rmd[rp] += dmd;
                saved_rval = s->rval[rp];
                s->rval[rp] = np_pdb_view_value(&pdbs->view[rp], ridx[d], s->rmd[rp]);
                s->rsum += s->rval[rp] - saved_rval;
                if (s->rsum > nh)
                    nh = s->rsum;
            }
        }
        const int f = weighted ? s->gw * (depth + 1) + s->hw * nh : depth + 1 + nh;
        int r = RUN;
        if (f > s->bound) {
            if (f < s->next_bound)
                s->next_bound = f;
        } else {
            s->path[depth] = (uint8_t)d;
            s->tiles[blank] = (uint8_t)t;
            s->tiles[nb] = 0;
            if (nh == 0) {
                /* h is zero only on the goal for these heuristics (a PDB set
                 * covers every tile); the board is left solved. */
                s->length = depth + 1;
                s->stop = FOUND;
                return FOUND;
            }
            s->blank = nb;
            uint64_t saved_ix = 0, saved_rix = 0;
            if (kind == K_PDB || kind == K_PDBR) {
                saved_ix = s->pix[p];
                s->pix[p] = idx[d];
                if (kind == K_PDBR) {
                    /* refl holds: the child passed the plain test */
                    saved_rix = s->rix[rp];
                    s->rix[rp] = ridx[d];
                }
            }
            r = dfs_call(s, depth + 1, nh, d, kind, weighted, side);
            if (kind == K_PDB || kind == K_PDBR) {
                s->pix[p] = saved_ix;
                if (kind == K_PDBR)
                    s->rix[rp] = saved_rix;
            }
            s->blank = blank;
            s->tiles[nb] = (uint8_t)t;
            s->tiles[blank] = 0;
        }
        if (kind == K_LC) {
            if (d == NP_UP || d == NP_DOWN) {
                s->rowcode[line1] = saved1;
                s->rowcode[line0] = saved0;
                s->colcode[along] = saved_along;
            } else {
                s->colcode[line1] = saved1;
                s->colcode[line0] = saved0;
                s->rowcode[along] = saved_along;
            }
        } else if (kind == K_PDB || kind == K_PDBR) {
            s->pmd[p] -= dmd;
            s->psum += saved_val - s->pval[p];
            s->pval[p] = saved_val;
            if (refl) {
                s->rmd[rp] -= dmd;
                s->rsum += saved_rval - s->rval[rp];
                s->rval[rp] = saved_rval;
            }
        }
        if (r != RUN)
            return r;
    }
    return RUN;
}

#define NP_DEFINE_KERNEL(name, kind, weighted, side) \
    static int dfs_##name(search *s, int depth, int h, int prev) \
    { \
        return dfs_node(s, depth, h, prev, kind, weighted, side); \
    }
NP_KERNEL_LIST(NP_DEFINE_KERNEL)

/* Entry into the kernel outside the recursion (root, frontier nodes). */
static int dfs_root(search *s, int kind, int weighted, int depth, int h, int prev)
{
    switch (s->side) {
    case 4: return dfs_call(s, depth, h, prev, kind, weighted, 4);
    case 5: return dfs_call(s, depth, h, prev, kind, weighted, 5);
    default: return dfs_call(s, depth, h, prev, kind, weighted, 0);
    }
}

/* The cells other than a and b whose labels lie strictly between theirs,
 * into out; @return how many. */
static uint8_t cells_between(const uint8_t *label, int cells, int a, int b, uint8_t *out)
{
    uint8_t n = 0;
    for (int x = 0; x < cells; x++)
        if (x != a && x != b && (label[x] > label[a]) != (label[x] > label[b]))
            out[n++] = (uint8_t)x;
    return n;
}

/* The PDB step tables (see struct search). */
static void search_pdb_tables(search *s, const np_geom *g, const np_pdbset *pdbs)
{
    uint8_t rlabel[NP_MAX_CELLS]; /* the label of each cell's mirror cell */
    for (int c = 0; c < g->cells; c++)
        rlabel[c] = g->label[g->mirror_cell[c]];
    for (int t = 1; t < g->cells; t++) {
        const int p = pdbs->pat_of[t], i = pdbs->slot_of[t];
        const int mt = g->mirror_tile[t], rp = pdbs->pat_of[mt], ri = pdbs->slot_of[mt];
        s->rpat_of[t] = (int8_t)rp;
        s->weight[t] = pdbs->ranker[p]->weight[i];
        s->rweight[t] = pdbs->ranker[rp]->weight[ri];
        for (int u = 1; u < g->cells; u++) {
            if (u != t && pdbs->pat_of[u] == p)
                s->pass[t][u] = np_rank_pass(pdbs->ranker[p], i, pdbs->slot_of[u]);
            const int mu = g->mirror_tile[u];
            if (mu != mt && pdbs->pat_of[mu] == rp)
                s->rpass[t][u] = np_rank_pass(pdbs->ranker[rp], ri, pdbs->slot_of[mu]);
        }
    }
    for (int c = 0; c < g->cells; c++)
        for (int d = 0; d < 4; d++) {
            const int to = g->nbr[c][NP_DIR_OPPOSITE(d)]; /* the blank's cell */
            if (to < 0)
                continue;
            s->step[c][d] = (int8_t)(g->label[to] - g->label[c]);
            s->rstep[c][d] = (int8_t)(rlabel[to] - rlabel[c]);
            s->nbtw[c][d] = cells_between(g->label, g->cells, c, to, s->btw[c][d]);
            s->nrbtw[c][d] = cells_between(rlabel, g->cells, c, to, s->rbtw[c][d]);
        }
}

/* Tables that depend on the geometry and heuristic only. */
static int search_tables(search *s, const np_geom *g, int kind, const np_pdbset *pdbs)
{
    memset(s, 0, sizeof *s);
    s->g = g;
    s->pdbs = pdbs;
    memcpy(s->nbr, g->nbr, sizeof s->nbr);
    for (int c = 0; c < g->cells; c++) {
        s->row_of[c] = (uint8_t)(c / g->cols);
        s->col_of[c] = (uint8_t)(c % g->cols);
    }
    for (int t = 1; t < g->cells; t++)
        for (int c = 0; c < g->cells; c++)
            for (int d = 0; d < 4; d++) {
                int from = g->nbr[c][NP_DIR_OPPOSITE(d)]; /* where the blank was */
                if (from >= 0)
                    s->mdd[t][c][d] = (int8_t)(g->dist[from][g->home[t]] - g->dist[c][g->home[t]]);
            }
    for (int r = 0; r < g->rows; r++)
        for (int t = 0; t < g->cells; t++)
            s->rowkey[r][t] = (int8_t)(t && g->home[t] / g->cols == r ? g->home[t] % g->cols : -1);
    for (int k = 0; k < g->cols; k++)
        for (int t = 0; t < g->cells; t++)
            s->colkey[k][t] = (int8_t)(t && g->home[t] % g->cols == k ? g->home[t] / g->cols : -1);
    for (int k = 0, w = 1; k < g->cols; k++, w *= g->cols + 1)
        s->rowpow[k] = w;
    for (int r = 0, w = 1; r < g->rows; r++, w *= g->rows + 1)
        s->colpow[r] = w;
    if (kind == K_LC) {
        s->rowtab = conflict_table(g->cols);
        s->coltab = g->cols == g->rows ? s->rowtab : conflict_table(g->rows);
        s->own_tabs = true;
    }
    if (pdbs)
        search_pdb_tables(s, g, pdbs);
    return NP_OK;
}

/* A second search sharing the first one's tables (for another thread). */
static void search_clone(search *dst, const search *src)
{
    *dst = *src;
    dst->own_tabs = false;
}

static void search_free_tables(search *s)
{
    if (!s->own_tabs)
        return;
    if (s->coltab != s->rowtab)
        free(s->coltab);
    free(s->rowtab);
}

/* Put board b on the search and set up the incremental state. */
static void search_set_board(search *s, const np_board *b)
{
    const np_geom *g = s->g;
    memcpy(s->tiles, b->tiles, (size_t)g->cells);
    s->blank = b->blank;
    memset(s->rowcode, 0, sizeof s->rowcode);
    memset(s->colcode, 0, sizeof s->colcode);
    for (int c = 0; c < g->cells; c++) {
        int r = s->row_of[c], k = s->col_of[c];
        s->rowcode[r] += (s->rowkey[r][s->tiles[c]] + 1) * s->rowpow[k];
        s->colcode[k] += (s->colkey[k][s->tiles[c]] + 1) * s->colpow[r];
    }
    const struct np_pdbset *pdbs = s->pdbs;
    if (pdbs) {
        uint8_t pos[NP_MAX_CELLS];
        /* b is valid (np_ida_solve checks it): its tiles are a permutation, so
         * this sets pos[u] for every tile u. */
        for (int c = 0; c < g->cells; c++)
            pos[b->tiles[c]] = (uint8_t)c;
        s->psum = s->rsum = 0;
        for (int p = 0; p < pdbs->npat; p++) {
            /* the labels of the pattern's tiles' cells, in pattern order */
            uint8_t plabels[NP_PATTERN_MAX_TILES] = {0}, rlabels[NP_PATTERN_MAX_TILES] = {0};
            const np_pattern *pat = &pdbs->part.patterns[p];
            s->pmd[p] = s->rmd[p] = 0;
            for (int j = 0; j < pat->ntiles; j++) {
                int u = pat->tiles[j];
                /* cppcheck-suppress uninitvar ; set above for every tile */
                plabels[j] = g->label[pos[u]];
                s->pmd[p] += g->dist[pos[u]][g->home[u]];
                /* On the mirror, tile u stands where its mirror tile stands here, transposed. */
                int mc = g->mirror_cell[pos[g->mirror_tile[u]]];
                rlabels[j] = g->label[mc];
                s->rmd[p] += g->dist[mc][g->home[u]];
            }
            s->pix[p] = np_rank_inline(pdbs->ranker[p], plabels);
            s->rix[p] = np_rank_inline(pdbs->ranker[p], rlabels);
            s->pval[p] = np_pdb_view_value(&pdbs->view[p], s->pix[p], s->pmd[p]);
            s->rval[p] = np_pdb_view_value(&pdbs->view[p], s->rix[p], s->rmd[p]);
            s->psum += s->pval[p];
            s->rsum += s->rval[p];
        }
    }
}

/* The heuristic of the board on the search, computed from its state. */
static int search_h(const search *s, int kind, const np_board *b)
{
    switch (kind) {
    case K_LC: return np_h_linear_conflict(b, s->g);
    case K_PDB: return s->psum;
    case K_PDBR: return s->psum > s->rsum ? s->psum : s->rsum;
    default: return np_board_manhattan(b, s->g);
    }
}

/* ---- parallel search of one board -------------------------------------- */

/* A node of the frontier handed to the threads: the board after `depth`
 * moves, the moves themselves (path[0..depth)) and its heuristic. */
typedef struct task {
    np_board board;
    int depth, h, prev;
    uint8_t path[64];
} task;

typedef struct frontier {
    task *v;
    size_t n, cap;
    int found_len;          /* >= 0 when a goal was met while building */
    uint8_t found_path[64];
    uint64_t generated, expanded;
    int next_bound;
} frontier;

/* Depth-first to `limit`, collecting the nodes at that depth within the bound
 * (the same tree and order the serial search walks). */
static int collect(frontier *fr, search *s, int kind, np_board *b, int depth, int h, int prev,
                   int limit, uint8_t *path)
{
    if (depth == limit) {
        if (fr->n == fr->cap) {
            size_t ncap = fr->cap ? fr->cap * 2 : 256;
            task *v = realloc(fr->v, ncap * sizeof *v);
            if (!v)
                return NP_ENOMEM;
            fr->v = v;
            fr->cap = ncap;
        }
        task *tk = &fr->v[fr->n++];
        tk->board = *b;
        tk->depth = depth;
        tk->h = h;
        tk->prev = prev;
        memcpy(tk->path, path, (size_t)depth);
        return NP_OK;
    }
    fr->expanded++;
    const int blank = b->blank;
    for (int d = 0; d < 4; d++) {
        if (d == NP_DIR_OPPOSITE(prev))
            continue;
        int nb = s->g->nbr[blank][d];
        if (nb < 0)
            continue;
        fr->generated++;
        np_board c = *b;
        np_board_move(&c, s->g, d);
        search_set_board(s, &c);
        int ch = search_h(s, kind, &c);
        int f = s->gw * (depth + 1) + s->hw * ch;
        if (f > s->bound) {
            if (f < fr->next_bound)
                fr->next_bound = f;
            continue;
        }
        path[depth] = (uint8_t)d;
        if (ch == 0) {
            fr->found_len = depth + 1;
            memcpy(fr->found_path, path, (size_t)depth + 1);
            return NP_OK;
        }
        int rc = collect(fr, s, kind, &c, depth + 1, ch, d, limit, path);
        if (rc != NP_OK || fr->found_len >= 0)
            return rc;
    }
    return NP_OK;
}

/* One IDA* iteration over all threads: build a frontier a few moves deep,
 * then hand its nodes out one at a time (their subtrees differ wildly). */
static int parallel_iteration(search *proto, int kind, int weighted, const np_board *start, int h0,
                              int threads, search **workers, int *found_len, uint8_t *found_path)
{
    frontier fr = {0};
    int rc = NP_OK;
    uint8_t path[64];
    /* Deepen the frontier until there are enough nodes to balance the threads. */
    for (int limit = 1; limit <= 32; limit++) {
        fr.n = 0;
        fr.found_len = -1;
        fr.generated = fr.expanded = 0;
        fr.next_bound = INT_MAX;
        np_board b = *start;
        rc = collect(&fr, proto, kind, &b, 0, h0, NP_NO_DIR, limit, path);
        if (rc != NP_OK || fr.found_len >= 0 || fr.n >= (size_t)threads * 32 || fr.n == 0)
            break;
    }
    proto->generated += fr.generated;
    proto->expanded += fr.expanded;
    /* The frontier's nodes count towards --max-nodes as well. */
    __atomic_add_fetch(&proto->sh->generated, fr.generated, __ATOMIC_RELAXED);
    if (fr.next_bound < proto->next_bound)
        proto->next_bound = fr.next_bound;
    if (rc != NP_OK || fr.found_len >= 0) {
        if (fr.found_len >= 0) {
            *found_len = fr.found_len;
            memcpy(found_path, fr.found_path, (size_t)fr.found_len);
        }
        free(fr.v);
        return rc;
    }
    int found = 0, stopped = 0;
    /* OpenMP may run fewer threads than asked for: a worker that gets no
     * frontier node must not contribute a stale bound below. */
    for (int i = 0; i < threads; i++) {
        workers[i]->next_bound = INT_MAX;
        workers[i]->stop = RUN;
    }
#pragma omp parallel num_threads(threads)
    {
        search *s = workers[omp_get_thread_num()];
        s->bound = proto->bound;
        s->next_bound = INT_MAX;
        s->stop = RUN;
#pragma omp for schedule(dynamic, 1)
        for (size_t i = 0; i < fr.n; i++) {
            if (__atomic_load_n(&proto->sh->stop, __ATOMIC_RELAXED))
                continue;
            task *tk = &fr.v[i];
            search_set_board(s, &tk->board);
            memcpy(s->path, tk->path, (size_t)tk->depth);
            s->stop = RUN;
            int r = dfs_root(s, kind, weighted, tk->depth, tk->h, tk->prev);
            if (r == FOUND) {
#pragma omp critical(np_ida_found)
                {
                    if (!found) {
                        found = 1;
                        *found_len = s->length;
                        memcpy(found_path, s->path, (size_t)s->length);
                    }
                }
                __atomic_store_n(&proto->sh->stop, 1, __ATOMIC_RELAXED);
            } else if (r == STOPPED) {
#pragma omp atomic write
                stopped = 1;
            }
        }
    }
    for (int i = 0; i < threads; i++) {
        search *s = workers[i];
        if (s->next_bound < proto->next_bound)
            proto->next_bound = s->next_bound;
    }
    if (found)
        __atomic_store_n(&proto->sh->stop, 0, __ATOMIC_RELAXED); /* ours, not a limit */
    else if (stopped)
        proto->stop = STOPPED;
    free(fr.v);
    return NP_OK;
}

int np_ida_solve(np_result *res, const np_board *start, const np_geom *g,
                 const np_search_opts *opts)
{
    np_search_opts defaults = {0};
    if (!opts)
        opts = &defaults;
    memset(res, 0, sizeof *res);
    res->length = -1;
    if (!np_geom_row_major(g) || !np_board_valid(start, g))
        return NP_EINVAL;
    if (opts->weight != 0 && opts->weight < 1.0)
        return NP_EINVAL;
    int kind;
    switch (opts->heuristic) {
    case NP_H_MD: kind = K_MD; break;
    case NP_H_LC: kind = K_LC; break;
    case NP_H_PDB:
        if (!opts->pdbs || opts->pdbs->g.rows != g->rows || opts->pdbs->g.cols != g->cols ||
            opts->pdbs->g.goal != g->goal)
            return NP_EUNSUPPORTED;
        kind = opts->no_reflect || !g->square ? K_PDB : K_PDBR;
        break;
    default: return NP_EINVAL;
    }

    double t0 = np_clock();
    search *s = malloc(sizeof *s);
    if (!s)
        return NP_ENOMEM;
    search_tables(s, g, kind, kind >= K_PDB ? opts->pdbs : NULL);
    if (!opts->generic_kernel && g->rows == g->cols && (g->rows == 4 || g->rows == 5))
        s->side = g->rows;
    search_set_board(s, start);
    res->h0 = search_h(s, kind, start);
    if (!np_board_solvable(start, g)) {
        res->status = NP_STATUS_UNSOLVABLE;
        res->seconds = np_clock() - t0;
        search_free_tables(s);
        free(s);
        return NP_OK;
    }
    shared sh = {0};
    sh.max_nodes = opts->max_nodes;
    sh.deadline = opts->timeout > 0 ? t0 + opts->timeout : 0;
    sh.cancel = opts->cancel;
    s->sh = &sh;
    int weighted = opts->weight > 1.0;
    s->gw = weighted ? 1000 : 1;
    s->hw = weighted ? (int)(opts->weight * 1000.0 + 0.5) : 1;
    s->next_check = CHECK_EVERY;
    if (sh.max_nodes && sh.max_nodes < s->next_check)
        s->next_check = sh.max_nodes;

    int threads = opts->threads > 1 ? opts->threads : 1;
    search **workers = NULL;
    int rc = NP_OK;
    if (threads > 1) {
        /* NOLINTNEXTLINE(bugprone-sizeof-expression): an array of pointers, sizeof(search *) is meant */
        workers = calloc((size_t)threads, sizeof *workers);
        for (int i = 0; workers && i < threads; i++) {
            workers[i] = malloc(sizeof(search));
            if (!workers[i]) {
                for (int j = 0; j < i; j++)
                    free(workers[j]);
                free(workers);
                workers = NULL;
                break;
            }
            /* cppcheck-suppress nullPointerRedundantCheck ; NULL only on the break above */
            search_clone(workers[i], s);
        }
        if (!workers)
            threads = 1; /* no memory for the copies: search serially */
    }

    int h0 = res->h0;
    if (h0 == 0) {
        s->length = 0;
        s->stop = FOUND;
    }
    s->bound = s->hw * h0;
    uint8_t par_path[NP_MAX_PATH];
    int par_len = -1;
    while (s->stop == RUN) {
        s->next_bound = INT_MAX;
        if (threads > 1) {
            search_set_board(s, start);
            rc = parallel_iteration(s, kind, weighted, start, h0, threads, workers, &par_len, par_path);
            if (rc != NP_OK)
                break;
            if (par_len >= 0) {
                s->length = par_len;
                memcpy(s->path, par_path, (size_t)par_len);
                s->stop = FOUND;
                break;
            }
        } else {
            dfs_root(s, kind, weighted, 0, h0, NP_NO_DIR);
        }
        if (s->stop != RUN || s->next_bound == INT_MAX)
            break;
        s->bound = s->next_bound;
    }
    res->expanded = s->expanded;
    res->generated = s->generated;
    if (workers) {
        for (int i = 0; i < threads; i++) {
            res->expanded += workers[i]->expanded;
            res->generated += workers[i]->generated;
            free(workers[i]);
        }
        free(workers);
    }
    res->bound = s->bound / s->gw;
    res->seconds = np_clock() - t0;
    if (rc == NP_OK && s->stop == FOUND) {
        for (int i = 0; i < s->length; i++)
            res->moves[i] = np_dir_char(s->path[i]);
        res->moves[s->length] = 0;
        res->length = s->length;
        res->status = NP_STATUS_SOLVED;
        /* Never print a path that has not been replayed to the goal. */
        if (np_solution_check(start, g, res->moves) != NP_OK) {
            res->status = NP_STATUS_ERROR;
            res->error = NP_EINVAL;
            res->length = -1;
            res->moves[0] = 0;
        }
    } else if (rc == NP_OK) {
        res->status = NP_STATUS_LIMIT;
        res->error = NP_ELIMIT;
    }
    search_free_tables(s);
    free(s);
    return rc;
}
