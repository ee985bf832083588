/* ida.c - the IDA* engine: one board, moves applied and undone in place. */
#include "npuzzle/ida.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "npuzzle/error.h"
#include "npuzzle/sys.h"
#include "search_internal.h"

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

/* How often (in generated nodes) the clock, the node limit and the cancel
 * flag are looked at: rare enough to cost nothing, often enough for a
 * timeout to be honoured within a few milliseconds. */
#define CHECK_EVERY (1u << 18)

typedef struct search {
    uint8_t tiles[NP_MAX_CELLS];
    int blank;
    int bound;       /* current f bound (in weighted units when weighted) */
    int next_bound;  /* least f that exceeded the bound in this iteration */
    int stop;
    int length;
    int gw, hw;      /* f = gw*g + hw*h; 1,1 for optimal search */
    uint64_t generated, expanded;
    uint64_t next_check;
    uint64_t max_nodes;
    double deadline;
    const volatile int *cancel;
    const np_geom *g;
    /* mdd[t][c][d]: change of Manhattan distance when tile t, standing on
     * cell c, slides into the blank that moved to c in direction d. One
     * lookup per child instead of two distances. */
    int8_t mdd[NP_MAX_CELLS][NP_MAX_CELLS][4];
    int8_t nbr[NP_MAX_CELLS][4];
    /* Linear conflict state. Each line has a code whose digits (base side+1)
     * are, cell by cell along the line, 1 + the goal position on the line of
     * the tile there, or 0 for the blank and tiles whose goal is off the line.
     * A move changes two codes by one digit each, in O(1); a table maps a code
     * to the line's conflict moves (computed from the digits when the table
     * would be too large, on 8-wide boards). */
    int32_t rowcode[NP_MAX_SIDE], colcode[NP_MAX_SIDE];
    int32_t rowpow[NP_MAX_SIDE], colpow[NP_MAX_SIDE];
    int8_t rowkey[NP_MAX_SIDE][NP_MAX_CELLS], colkey[NP_MAX_SIDE][NP_MAX_CELLS];
    uint8_t *rowtab, *coltab;
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
    s->next_check = s->generated + CHECK_EVERY;
    if (s->max_nodes && s->generated >= s->max_nodes)
        return 1;
    if (s->cancel && *s->cancel)
        return 1;
    if (s->deadline > 0 && np_clock() >= s->deadline)
        return 1;
    return 0;
}

static int dfs_md(search *s, int depth, int h, int prev);
static int dfs_lc(search *s, int depth, int h, int prev);
static int dfs_md_w(search *s, int depth, int h, int prev);
static int dfs_lc_w(search *s, int depth, int h, int prev);

static inline __attribute__((always_inline)) int
dfs_call(search *s, int depth, int h, int prev, const np_hkind hk, const int weighted)
{
    if (hk == NP_H_LC)
        return weighted ? dfs_lc_w(s, depth, h, prev) : dfs_lc(s, depth, h, prev);
    return weighted ? dfs_md_w(s, depth, h, prev) : dfs_md(s, depth, h, prev);
}

/* Expand one node whose f is within the bound and which is not the goal.
 * `hk` and `weighted` are compile-time constants in each instantiation, so the
 * Manhattan kernel carries no trace of the others. */
static inline __attribute__((always_inline)) int
dfs_node(search *s, int depth, int h, int prev, const np_hkind hk, const int weighted)
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
    const int cols = s->g->cols;
    for (int d = 0; d < 4; d++) {
        if (d == NP_DIR_OPPOSITE(prev))
            continue;
        const int nb = s->nbr[blank][d];
        if (nb < 0)
            continue;
        s->generated++;
        const int t = s->tiles[nb];
        int nh = h + s->mdd[t][nb][d];
        int saved0 = 0, saved1 = 0, line0 = 0, line1 = 0, along = 0, saved_along = 0;
        if (hk == NP_H_LC) {
            /* A vertical move takes the tile from the blank's new row to its
             * old one; a horizontal move does the same with columns. The
             * other lines keep their tiles in the same order. */
            if (d == NP_UP || d == NP_DOWN) {
                line0 = blank / cols;
                line1 = nb / cols;
                saved_along = s->colcode[blank % cols];
                const int32_t w = s->rowpow[blank % cols];
                saved0 = s->rowcode[line0];
                saved1 = s->rowcode[line1];
                s->rowcode[line0] = saved0 + (s->rowkey[line0][t] + 1) * w;
                s->rowcode[line1] = saved1 - (s->rowkey[line1][t] + 1) * w;
                nh += row_lc(s, s->rowcode[line0]) + row_lc(s, s->rowcode[line1]) -
                      row_lc(s, saved0) - row_lc(s, saved1);
                /* Along its column the tile only changes place with the blank:
                 * same conflicts, but the column's digits move. */
                along = blank % cols;
                s->colcode[along] += (s->colkey[along][t] + 1) * (s->colpow[line0] - s->colpow[line1]);
            } else {
                line0 = blank % cols;
                line1 = nb % cols;
                saved_along = s->rowcode[blank / cols];
                const int32_t w = s->colpow[blank / cols];
                saved0 = s->colcode[line0];
                saved1 = s->colcode[line1];
                s->colcode[line0] = saved0 + (s->colkey[line0][t] + 1) * w;
                s->colcode[line1] = saved1 - (s->colkey[line1][t] + 1) * w;
                nh += col_lc(s, s->colcode[line0]) + col_lc(s, s->colcode[line1]) -
                      col_lc(s, saved0) - col_lc(s, saved1);
                along = blank / cols;
                s->rowcode[along] += (s->rowkey[along][t] + 1) * (s->rowpow[line0] - s->rowpow[line1]);
            }
        }
#ifdef NP_DEBUG_LC
        if (hk == NP_H_LC) {
            np_board bb; bb.rows = (uint8_t)s->g->rows; bb.cols = (uint8_t)cols;
            memcpy(bb.tiles, s->tiles, NP_MAX_CELLS); bb.tiles[blank] = (uint8_t)t; bb.tiles[nb] = 0; bb.blank = (uint8_t)nb;
            int full = np_h_linear_conflict(&bb, s->g);
            if (full != nh) { fprintf(stderr, "LC drift: full %d inc %d d %d\n", full, nh, d); abort(); }
        }
#endif
        const int f = weighted ? s->gw * (depth + 1) + s->hw * nh : depth + 1 + nh;
        int r = RUN;
        if (f > s->bound) {
            if (f < s->next_bound)
                s->next_bound = f;
        } else {
            s->path[depth] = (uint8_t)d;
            if (nh == 0) {
                /* h is zero only on the goal for these heuristics. */
                s->length = depth + 1;
                s->stop = FOUND;
                return FOUND;
            }
            s->tiles[blank] = (uint8_t)t;
            s->tiles[nb] = 0;
            s->blank = nb;
            r = dfs_call(s, depth + 1, nh, d, hk, weighted);
            s->blank = blank;
            s->tiles[nb] = (uint8_t)t;
            s->tiles[blank] = 0;
        }
        if (hk == NP_H_LC) {
            if (d == NP_UP || d == NP_DOWN) {
                s->rowcode[line1] = saved1;
                s->rowcode[line0] = saved0;
                s->colcode[along] = saved_along;
            } else {
                s->colcode[line1] = saved1;
                s->colcode[line0] = saved0;
                s->rowcode[along] = saved_along;
            }
        }
        if (r != RUN)
            return r;
    }
    return RUN;
}

static int dfs_md(search *s, int depth, int h, int prev) { return dfs_node(s, depth, h, prev, NP_H_MD, 0); }
static int dfs_lc(search *s, int depth, int h, int prev) { return dfs_node(s, depth, h, prev, NP_H_LC, 0); }
static int dfs_md_w(search *s, int depth, int h, int prev) { return dfs_node(s, depth, h, prev, NP_H_MD, 1); }
static int dfs_lc_w(search *s, int depth, int h, int prev) { return dfs_node(s, depth, h, prev, NP_H_LC, 1); }

static void search_init(search *s, const np_board *start, const np_geom *g)
{
    memset(s, 0, sizeof *s);
    s->g = g;
    memcpy(s->tiles, start->tiles, (size_t)g->cells);
    s->blank = start->blank;
    memcpy(s->nbr, g->nbr, sizeof s->nbr);
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
    for (int c = 0; c < g->cells; c++) {
        int r = c / g->cols, k = c % g->cols;
        s->rowcode[r] += (s->rowkey[r][s->tiles[c]] + 1) * s->rowpow[k];
        s->colcode[k] += (s->colkey[k][s->tiles[c]] + 1) * s->colpow[r];
    }
}

static int search_init_lc_tables(search *s)
{
    s->rowtab = conflict_table(s->g->cols);
    s->coltab = s->g->cols == s->g->rows ? s->rowtab : conflict_table(s->g->rows);
    return NP_OK;
}

static void search_free(search *s)
{
    if (s->coltab != s->rowtab)
        free(s->coltab);
    free(s->rowtab);
    free(s);
}

int np_ida_solve(np_result *res, const np_board *start, const np_geom *g,
                 const np_search_opts *opts)
{
    np_search_opts defaults = {0};
    if (!opts)
        opts = &defaults;
    memset(res, 0, sizeof *res);
    res->length = -1;
    if (!np_board_valid(start, g))
        return NP_EINVAL;
    if (opts->weight != 0 && opts->weight < 1.0)
        return NP_EINVAL;
    if (opts->heuristic == NP_H_PDB)
        return np__ida_pdb(res, start, g, opts);
    if (opts->heuristic != NP_H_MD && opts->heuristic != NP_H_LC)
        return NP_EINVAL;

    double t0 = np_clock();
    res->h0 = opts->heuristic == NP_H_LC ? np_h_linear_conflict(start, g) : np_board_manhattan(start, g);
    if (!np_board_solvable(start, g)) {
        res->status = NP_STATUS_UNSOLVABLE;
        res->seconds = np_clock() - t0;
        return NP_OK;
    }
    search *s = malloc(sizeof *s);
    if (!s)
        return NP_ENOMEM;
    search_init(s, start, g);
    if (opts->heuristic == NP_H_LC)
        search_init_lc_tables(s);
    int weighted = opts->weight > 1.0;
    s->gw = weighted ? 1000 : 1;
    s->hw = weighted ? (int)(opts->weight * 1000.0 + 0.5) : 1;
    s->max_nodes = opts->max_nodes;
    s->deadline = opts->timeout > 0 ? t0 + opts->timeout : 0;
    s->cancel = opts->cancel;
    s->next_check = CHECK_EVERY;
    if (s->max_nodes && s->max_nodes < s->next_check)
        s->next_check = s->max_nodes;

    int h0 = res->h0;
    if (h0 == 0) {
        s->length = 0;
        s->stop = FOUND;
    }
    s->bound = s->gw * 0 + s->hw * h0;
    while (s->stop == RUN) {
        s->next_bound = INT_MAX;
        int r;
        if (opts->heuristic == NP_H_LC)
            r = weighted ? dfs_lc_w(s, 0, h0, NP_NO_DIR) : dfs_lc(s, 0, h0, NP_NO_DIR);
        else
            r = weighted ? dfs_md_w(s, 0, h0, NP_NO_DIR) : dfs_md(s, 0, h0, NP_NO_DIR);
        if (r != RUN || s->next_bound == INT_MAX)
            break;
        s->bound = s->next_bound;
    }
    res->expanded = s->expanded;
    res->generated = s->generated;
    res->bound = s->bound / s->gw;
    res->seconds = np_clock() - t0;
    int rc = NP_OK;
    if (s->stop == FOUND) {
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
    } else {
        res->status = NP_STATUS_LIMIT;
        res->error = NP_ELIMIT;
    }
    search_free(s);
    return rc;
}
