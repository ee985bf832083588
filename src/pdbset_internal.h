/* pdbset_internal.h - the layout of an opened PDB set, shared by pdbset.c, heuristic.c and the
 * search. */
#ifndef NPUZZLE_PDBSET_INTERNAL_H
#define NPUZZLE_PDBSET_INTERNAL_H

#include <stdbool.h>

#include "npuzzle/pattern.h"
#include "npuzzle/pdb_file.h"
#include "npuzzle/pdb_gen.h"
#include "npuzzle/pdbset.h"
#include "npuzzle/rank.h"
#include "gen_index.h"

#define NP_PDBSET_REGIONS NP_PDB_DUAL_REGIONS /* goal regions with tables, per pattern */

struct np_pdbset {
    np_geom g;
    np_partition part;
    int npat;
    np_pdb *pdb[NP_PARTITION_MAX];
    np_pdb_view view[NP_PARTITION_MAX];
    np_ranker ranker[NP_PARTITION_MAX];
    void *copy[NP_PARTITION_MAX]; /* private payload copies (NP_PDBSET_PRIVATE_COPY) */
    int8_t pat_of[NP_MAX_CELLS];  /* pattern of tile t (-1 for the blank) */
    /* The dual lookup (np__pdb_dual). A frame is the board itself or its
     * mirror: dual_cell[f][h] is the cell of the board that holds frame cell
     * h, dual_home[f][t] the frame cell home to the frame's name of tile t. */
    uint8_t dual_cell[2][NP_MAX_CELLS], dual_home[2][NP_MAX_CELLS];
    int8_t pat_of_home[NP_MAX_CELLS]; /* pattern of the tile home to cell h (-1 for the blank's) */
    /* dual_view[p][z]: with the blank on cell z, the table pattern p is
     * looked up in on the dual: the one whose goal has the blank in z's region
     * once p's tiles stand at home (the standard one for the blank's home
     * region); NULL when z is a home of p's or that table is not open */
    const np_pdb_view *dual_view[NP_PARTITION_MAX][NP_MAX_CELLS];
    /* the tables of other goal regions (NP_PDBSET_DUAL), in np_pdb_goal_regions order */
    np_pdb *region_pdb[NP_PARTITION_MAX][NP_PDBSET_REGIONS];
    np_pdb_view region_view[NP_PARTITION_MAX][NP_PDBSET_REGIONS];
    /* with the blank on cell z, the table of the pattern home to z without
     * the tile home to z (np_pdb_dual_tables; NULL: not open), whose tile j
     * that is, and the rankers of each pattern without one tile */
    const np_pdb_view *sub_view_of[NP_MAX_CELLS];
    int8_t sub_skip[NP_MAX_CELLS];
    np_ranker sub_ranker[NP_PARTITION_MAX];
    np_pdb *sub_pdb[NP_PARTITION_MAX][NP_PATTERN_MAX_TILES];
    np_pdb_view sub_view[NP_PARTITION_MAX][NP_PATTERN_MAX_TILES];
    int dual_missing;             /* such tables not found */
    char dual_missing_path[4096]; /* the first of them */
    /* Zero-aware tables (NP_PDBSET_ZERO_AWARE): row `rank` of za_region[p]
     * holds the region (np_pdb_gen_opts.region_gain's numbering, 0 .. 3; 4
     * for a later one or an occupied cell) of each free label z when pattern
     * p's tiles stand on the labels of the cell set of colex rank `rank`
     * (np__comb_rank), a nibble per label (z even: the low one), za_row_bytes
     * a row; one table per pattern size, shared. On boards of at most 16
     * cells `rank` is the label set itself, one table serves every size (no
     * rank to compute) and a row is a byte per label (za_region[p][set *
     * cells + z]). */
    bool za;
    bool za_direct;   /* boards of at most 16 cells: one table indexed by the label set itself */
    int za_row_bytes; /* !za_direct: (cells + 1) / 2 */
    const uint8_t *za_region[NP_PARTITION_MAX];
    const uint8_t *za_region_sub[NP_PARTITION_MAX]; /* for the pattern less one tile */
    uint8_t *za_region_own[NP_PATTERN_MAX_TILES + 1];
    uint64_t za_direct_sizes; /* za_direct: bit k set when the rows of k labels are filled */
    np__gen_index za_index;   /* the binomials of np__comb_rank */
};

/* The value of a zero-aware entry whose byte is `e`, for the pattern's
 * Manhattan sum md, its tiles on `labels` and the blank on label z, with the
 * region table of the pattern's size (za_region, za_region_sub): the least
 * value, 2 more when the blank's region needs more. */
static inline int np__za_value(const struct np_pdbset *set, const uint8_t *region, unsigned e,
                               int md, uint64_t labels, int z)
{
    const int v = md + 2 * (int)(e & 15);
    if (!(e >> 4)) /* no region needs more: the common case, with no rank to compute */
        return v;
    int r;
    if (set->za_direct) {
        r = region[labels * (uint64_t)set->g.cells + (uint64_t)z];
    } else {
        const uint64_t row = np__comb_rank(&set->za_index, labels);
        r = region[row * (uint64_t)set->za_row_bytes + (uint64_t)(z >> 1)] >> ((z & 1) << 2) & 15;
    }
    return v + 2 * (int)(e >> (4 + r) & 1);
}

/* Pattern p's entry for a board whose tile u stands on cell pos[u], from
 * scratch: the Manhattan sum of the pattern's tiles (*md), the table index
 * ranking the cells' numbers label[c] (*index: the board's labels, or the
 * mirror's), the labels the tiles stand on (*labels, which the zero-aware
 * lookups read), and the value, returned. The one place both the heuristic
 * and the search start a lookup. */
static inline int np__pdb_lookup(const struct np_pdbset *set, int p, const uint8_t *label,
                                 const uint8_t *pos, int *md, uint64_t *index, uint64_t *labels)
{
    const np_geom *g = &set->g;
    const np_pattern *pat = &set->part.patterns[p];
    int m = 0;
    *labels = 0;
    for (int j = 0; j < pat->ntiles; j++) {
        m += g->dist[pos[pat->tiles[j]]][g->home[pat->tiles[j]]];
        *labels |= UINT64_C(1) << label[pos[pat->tiles[j]]];
    }
    *md = m;
    *index = np_rank_cells_of(&set->ranker[p], label, pos, pat->tiles);
    if (set->za)
        return np__za_value(set, set->za_region[p], set->view[p].payload[*index], m, *labels,
                            label[pos[0]]);
    return np_pdb_view_value(&set->view[p], *index, m);
}

/* The dual lookup (Felner, Zahavi, Holte and Schaeffer 2005), in the form
 * that is admissible on a tile puzzle, for the board whose tile on cell c is
 * tiles[c], in frame f (0: the board, 1: its mirror), the blank on frame cell
 * z. Why it is admissible:
 *
 * Read a board S as a permutation of cells, pi(c) = home of the tile on c;
 * the goal is the identity and a move swaps the blank's cell with a
 * neighbour. If a path of k moves swaps cells (a_0 b_0) ... (a_{k-1} b_{k-1})
 * to solve S, the same swaps in reverse order take the inverse permutation
 * pi^-1 (the dual D: the tile home to h stands on cell pi(h)) to the identity,
 * and in D each swap has on one of its cells the tile home to z, the blank's
 * cell in S. So D, with that tile read as the blank and the blank read as
 * a tile whose goal is the blank's home h0, is a board that k moves solve to
 * the goal with the blank on z instead of h0. Along those moves each pattern
 * tile set moves at least its table value, when the table answers for that
 * goal: when z is no home of the pattern's tiles (it would hold the tile read
 * as the blank) and the tables' goal, built with the blank in h0's region
 * (pdb_gen.c), is the same state: z in h0's region of the cells free with the
 * pattern at home; or when a table built for the goal with the blank in z's
 * region is open (NP_PDBSET_DUAL, np_pdb_gen_opts.goal_region): dual_view.
 * The pattern of the tile read as the blank is looked up without that tile,
 * in its own table (np_pdb_dual_tables: the goal's blank in z's region once
 * the others are home), and the blank's tile counts its Manhattan distance
 * to h0. Patterns without such a table count their tiles' Manhattan
 * distances on D. The tile sets are disjoint, so the sum is a lower bound
 * on k. With the blank at home (z = h0)
 * D is a board at S's distance and every pattern is looked up.
 *
 * With zero-aware tables (NP_PDBSET_ZERO_AWARE) a term read from one (the
 * standard table, or one of the dual tables gen --dual --zero-aware builds)
 * is the value for the region of D's blank, which always stands on h0: the
 * tile home to z stands on pi(z), the home of S's blank. That value is the
 * pattern's exact distance, in its abstraction, from its tiles where D has
 * them and the blank in h0's region to its tiles at home with the blank
 * anywhere in the table's goal region; D's k moves end in such a state, since
 * z is in that region whichever table is looked up, so the sum stays a lower
 * bound on k.
 * (The plain inverse, blank included, is not a board at S's distance; tested
 * on every 8-puzzle board in tests/test_pdb_search.c.)
 *
 * np__pdb_dual_term is pattern p's term. A move changes the terms of two
 * patterns at most, those home to the blank's cells before and after (the
 * search keeps the others). */
/* Where pattern p's dual term is: its table (NULL: the term is md + extra
 * alone), the entry, and the Manhattan sum the 4-bit encoding needs. */
typedef struct np_dual_entry {
    const np_pdb_view *view;
    uint64_t index;
    uint64_t labels;       /* the labels D's tiles of the table stand on (zero-aware) */
    const uint8_t *region; /* a zero-aware view's region table (za_region...); else NULL */
    int md, extra;
} np_dual_entry;

static inline void np__pdb_dual_locate(const struct np_pdbset *set, const uint8_t *tiles, int f,
                                       int z, int p, np_dual_entry *e)
{
    const np_geom *g = &set->g;
    const uint8_t *cell = set->dual_cell[f], *home = set->dual_home[f];
    const int h0 = g->home[0];
    const np_pattern *pat = &set->part.patterns[p];
    uint8_t cells[NP_RANK_MAX_K];
    int md = 0;
    e->extra = 0;
    e->index = 0;
    e->labels = 0;
    e->region = NULL;
    e->view = set->dual_view[p][z]; /* NULL for the pattern home to z */
    if (!e->view && set->pat_of_home[z] == p && set->sub_view_of[z]) {
        /* without the tile read as the blank; the blank's tile to h0 */
        const int skip = set->sub_skip[z];
        int k = 0;
        for (int j = 0; j < pat->ntiles; j++) {
            if (j == skip)
                continue;
            const int h = g->home[pat->tiles[j]];
            const int at = home[tiles[cell[h]]];
            md += g->dist[at][h];
            cells[k] = g->label[at];
            e->labels |= UINT64_C(1) << cells[k++];
        }
        e->view = set->sub_view_of[z];
        e->index = np_rank_inline(&set->sub_ranker[p], cells);
        e->md = md;
        e->extra = g->dist[home[tiles[cell[h0]]]][h0];
        if (e->view->encoding == NP_PDB_ENC_ZA)
            e->region = set->za_region_sub[p];
        return;
    }
    if (!e->view) {
        for (int j = 0; j < pat->ntiles; j++) {
            const int h = g->home[pat->tiles[j]];
            if (h == z) /* the tile read as the blank: the blank's tile, to h0 */
                md += g->dist[home[tiles[cell[h0]]]][h0];
            else
                md += g->dist[home[tiles[cell[h]]]][h];
        }
        e->md = md;
        return;
    }
    for (int j = 0; j < pat->ntiles; j++) {
        const int h = g->home[pat->tiles[j]];
        const int at = home[tiles[cell[h]]];
        md += g->dist[at][h];
        cells[j] = g->label[at];
        e->labels |= UINT64_C(1) << cells[j];
    }
    e->index = np_rank_inline(&set->ranker[p], cells);
    e->md = md;
    if (e->view->encoding == NP_PDB_ENC_ZA)
        e->region = set->za_region[p];
}

static inline int np__pdb_dual_value(const struct np_pdbset *set, const np_dual_entry *e)
{
    if (e->region) /* D's blank is on h0 */
        return np__za_value(set, e->region, e->view->payload[e->index], e->md, e->labels,
                            set->g.label[set->g.home[0]]) +
            e->extra;
    return (e->view ? np_pdb_view_value(e->view, e->index, e->md) : e->md) + e->extra;
}

static inline int np__pdb_dual_term(const struct np_pdbset *set, const uint8_t *tiles, int f, int z,
                                    int p)
{
    np_dual_entry e;
    np__pdb_dual_locate(set, tiles, f, z, p, &e);
    return np__pdb_dual_value(set, &e);
}

/* The dual lookup: the sum of np__pdb_dual_term over the patterns. */
static inline int np__pdb_dual(const struct np_pdbset *set, const uint8_t *tiles, int f, int z)
{
    int sum = 0;
    for (int p = 0; p < set->npat; p++)
        sum += np__pdb_dual_term(set, tiles, f, z, p);
    return sum;
}

/* Ask for the cache line of entry i of pattern p (a hint; never faults). */
static inline void np__pdb_prefetch(const struct np_pdbset *set, int p, uint64_t i)
{
    const np_pdb_view *v = &set->view[p];
    __builtin_prefetch(v->payload + (v->encoding == NP_PDB_ENC_4BIT ? i >> 1 : i), 0, 0);
}

#endif
