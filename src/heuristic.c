/* heuristic.c - heuristics computed from scratch: Manhattan distance, linear conflict, additive
 * PDB sums (plain and reflected). */
#include "npuzzle/heuristic.h"

#include <string.h>

#include "npuzzle/error.h"
#include "pdbset_internal.h"

int np_hkind_parse(np_hkind *out, const char *name)
{
    static const struct {
        const char *name;
        np_hkind kind;
    } names[] = {
        {"md", NP_H_MD},   {"manhattan", NP_H_MD}, {"lc", NP_H_LC}, {"linear-conflict", NP_H_LC},
        {"pdb", NP_H_PDB},
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

void np_lc_goal_keys(const np_geom *g, int8_t row_key[NP_MAX_SIDE][NP_MAX_CELLS],
                     int8_t col_key[NP_MAX_SIDE][NP_MAX_CELLS])
{
    for (int t = 0; t < g->cells; t++) {
        const int r = g->row[g->home[t]], k = g->col[g->home[t]];
        for (int line = 0; line < g->rows; line++)
            row_key[line][t] = (int8_t)(t && r == line ? k : -1);
        for (int line = 0; line < g->cols; line++)
            col_key[line][t] = (int8_t)(t && k == line ? r : -1);
    }
}

int np_h_linear_conflict(const np_board *b, const np_geom *g)
{
    int h = np_board_manhattan(b, g);
    uint8_t line[NP_MAX_SIDE];
    int8_t row_key[NP_MAX_SIDE][NP_MAX_CELLS], col_key[NP_MAX_SIDE][NP_MAX_CELLS];
    np_lc_goal_keys(g, row_key, col_key);
    for (int r = 0; r < g->rows; r++) {
        for (int k = 0; k < g->cols; k++)
            line[k] = b->tiles[np_cell_at(r, k, g->cols)];
        h += np_lc_line(line, g->cols, row_key[r]);
    }
    for (int k = 0; k < g->cols; k++) {
        for (int r = 0; r < g->rows; r++)
            line[r] = b->tiles[np_cell_at(r, k, g->cols)];
        h += np_lc_line(line, g->rows, col_key[k]);
    }
    return h;
}

/* ---- additive pattern databases ----------------------------------------- */

/* Sum of the lookups of the board whose tile t stands on cell pos[t]. */
static int pdb_sum(const np_pdbset *set, const uint8_t *pos)
{
    int h = 0;
    for (int p = 0; p < set->npat; p++) {
        int md;
        uint64_t index, labels;
        h += np__pdb_lookup(set, p, set->g.label, pos, &md, &index,
                            &labels); /* tables rank labels */
    }
    return h;
}

int np_h_pdb_plain(const np_pdbset *set, const np_board *b)
{
    uint8_t pos[NP_MAX_CELLS] = {0};
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

int np_h_pdb_dual(const np_pdbset *set, const np_board *b, bool no_reflect)
{
    int h = np__pdb_dual(set, b->tiles, 0, b->blank);
    if (!no_reflect && set->g.square) {
        int hr = np__pdb_dual(set, b->tiles, 1, set->g.mirror_cell[b->blank]);
        if (hr > h)
            h = hr;
    }
    return h;
}
