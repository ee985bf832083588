/* pdbset_internal.h - the layout of an opened PDB set, shared by pdbset.c, heuristic.c and the
 * search. */
#ifndef NPUZZLE_PDBSET_INTERNAL_H
#define NPUZZLE_PDBSET_INTERNAL_H

#include "npuzzle/pattern.h"
#include "npuzzle/pdb_file.h"
#include "npuzzle/pdbset.h"
#include "npuzzle/rank.h"

struct np_pdbset {
    np_geom g;
    np_partition part;
    int npat;
    np_pdb *pdb[NP_PARTITION_MAX];
    np_pdb_view view[NP_PARTITION_MAX];
    np_ranker ranker[NP_PARTITION_MAX];
    void *copy[NP_PARTITION_MAX]; /* private payload copies (NP_PDBSET_PRIVATE_COPY) */
    int8_t pat_of[NP_MAX_CELLS];  /* pattern of tile t (-1 for the blank) */
};

/* Pattern p's entry for a board whose tile u stands on cell pos[u], from
 * scratch: the Manhattan sum of the pattern's tiles (*md), the table index
 * ranking the cells' numbers label[c] (*index: the board's labels, or the
 * mirror's), and the value, returned. The one place both the heuristic and
 * the search start a lookup. */
static inline int np__pdb_lookup(const struct np_pdbset *set, int p, const uint8_t *label,
                                 const uint8_t *pos, int *md, uint64_t *index)
{
    const np_geom *g = &set->g;
    const np_pattern *pat = &set->part.patterns[p];
    int m = 0;
    for (int j = 0; j < pat->ntiles; j++)
        m += g->dist[pos[pat->tiles[j]]][g->home[pat->tiles[j]]];
    *md = m;
    *index = np_rank_cells_of(&set->ranker[p], label, pos, pat->tiles);
    return np_pdb_view_value(&set->view[p], *index, m);
}

/* Ask for the cache line of entry i of pattern p (a hint; never faults). */
static inline void np__pdb_prefetch(const struct np_pdbset *set, int p, uint64_t i)
{
    const np_pdb_view *v = &set->view[p];
    __builtin_prefetch(v->payload + (v->encoding == NP_PDB_ENC_4BIT ? i >> 1 : i), 0, 0);
}

#endif
