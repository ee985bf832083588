/* gen_index.h - the PDB generator's own numbering of placements while its BFS runs (not public
 * API).
 *
 * A placement of k tiles on n cells is numbered comb * k! + perm:
 *   comb  ranks the set of occupied cells in the combinatorial number system:
 *         the sorted cells c_1 < ... < c_k give sum C(c_i, i), so masks in
 *         increasing numeric order get ranks 0, 1, 2, ... (colex order);
 *   perm  ranks the order of the tiles on that set: order[j] = the pattern
 *         index of the tile on the j-th smallest occupied cell, digit[j] =
 *         how many indices after position j are smaller than order[j] (its
 *         Lehmer digit), perm = sum of digit[j] * (k-1-j)!, the
 *         lexicographic rank of order[].
 * The BFS uses it because the k! orders of one cell set share their moves
 * (pdb_gen.c). The table it hands out is indexed by np_rank() (rank.h), which
 * owns the index; np_rank_linear() gives the renumbering.
 */
#ifndef NPUZZLE_GEN_INDEX_H
#define NPUZZLE_GEN_INDEX_H

#include <stdint.h>
#include <string.h>

#include "npuzzle/board.h"
#include "npuzzle/rank.h"

/* Tables for one (n, k): read-only after np__gen_index_init(). */
typedef struct np__gen_index {
    int n, k;
    uint64_t ncombs;                                     /* C(n,k) cell sets */
    uint64_t kfact;                                      /* k! orders */
    uint64_t binom[NP_MAX_CELLS + 1][NP_RANK_MAX_K + 1]; /* binom[a][b] = C(a,b) */
    uint64_t fact[NP_RANK_MAX_K + 1];
} np__gen_index;

/* Prepare tables for k tiles on n cells (the limits of np_ranker_init).
 * @return NP_OK or NP_EINVAL. */
int np__gen_index_init(np__gen_index *x, int n, int k);

/* Rank of a cell set given as a mask with exactly k bits, in 0 .. ncombs-1
 * (inline: the zero-aware lookups rank sets in the search, pdbset_internal.h). */
static inline uint64_t np__comb_rank(const np__gen_index *x, uint64_t mask)
{
    uint64_t rank = 0;
    for (int i = 1; mask; i++) {
        rank += x->binom[__builtin_ctzll(mask)][i];
        mask &= mask - 1;
    }
    return rank;
}

/* The next larger mask with the same number of bits (Gosper's hack): the
 * cell set of the next rank. */
static inline uint64_t np__next_subset(uint64_t m)
{
    uint64_t low = m & -m;
    uint64_t up = m + low;
    return up | (((m ^ up) >> 2) / low);
}

#define NP__NO_REGION 0xFF

/* adj[c]: the cells next to cell c of g, as a mask (for np__label_regions_adj). */
void np__region_adjacency(const np_geom *g, uint64_t *adj);

/* Label the connected regions of the cells outside `occupied`, on the n
 * cells whose neighbours np__region_adjacency gave: region[c] gets the region
 * number (0.. in order of the regions' smallest cells) of free cell c,
 * NP__NO_REGION for occupied cells. A region grows by whole frontiers of
 * cells at a time (masks). @return the number of regions. */
int np__label_regions_adj(const uint64_t *adj, int n, uint64_t occupied, uint8_t *region);

/* Inverse of np__comb_rank: the mask of the cell set with that rank (the
 * generator walks sets in rank order and needs no inverse; the tests check
 * np__comb_rank with it). */
uint64_t np__comb_unrank(const np__gen_index *x, uint64_t comb);

/* The order rank of the placement cells[0..k-1] (tile j on cells[j]) whose
 * cell set is `mask`, in 0 .. k!-1. */
uint64_t np__perm_rank(const np__gen_index *x, const uint8_t *cells, uint64_t mask);

/* Inverse of np__perm_rank: cells[0..k-1] from a cell set and an order rank
 * (for the tests, as np__comb_unrank). */
void np__perm_unrank(const np__gen_index *x, uint64_t mask, uint64_t perm, uint8_t *cells);

/* Decode an order rank of k tiles: order[0..k-1] and its digits digit[0..k-1]. */
void np__perm_order(int k, uint64_t perm, uint8_t *order, uint8_t *digit);

/* ---- stepping through order ranks fast (the generator's hot loop) ---------
 *
 * order[], digit[] and perm as defined at the top of this file.
 *
 * Unranking in the hot loop uses no division: perm = hi * L! + lo, where hi
 * fixes the first k-L slots and lo the relative order of the last L. A unit's
 * k! states are scanned hi block by hi block, and two small tables give each
 * block's and each lo's part of order[] and digit[]. */

typedef struct np__perm_cursor {
    uint64_t perm;
    uint8_t order[NP_RANK_MAX_K];
    uint8_t digit[NP_RANK_MAX_K];
} np__perm_cursor;

/* Unrank perm among the k! orders the slow way (divisions). */
static inline void np__cursor_set(np__perm_cursor *pc, int k, uint64_t perm)
{
    memset(pc, 0, sizeof *pc);
    pc->perm = perm;
    np__perm_order(k, perm, pc->order, pc->digit);
}

/* hi_tab[hi]: order[0..k-L-1] and digit[0..k-L-1] of the first slots, then
 * in order[k-L..k-1] the remaining indices ascending (digits 0 there).
 * lo_tab[lo]: order[i] = rank among those remaining of slot k-L+i's index,
 * digit[k-L+i] its digit (0 elsewhere). */
typedef struct np__perm_part {
    uint8_t order[NP_RANK_MAX_K];
    uint8_t digit[NP_RANK_MAX_K];
} np__perm_part;

/* The suffix length L: the lo table has L! entries, the hi table k!/L!. */
static inline int np__suffix_len(int k)
{
    int l = k - 5 > 6 ? k - 5 : 6;
    /* cppcheck-suppress knownConditionTrueFalse ; false for k <= 6 */
    return l < k ? l : k;
}

static inline void np__cursor_combine(np__perm_cursor *pc, const np__perm_part *hi,
                                      const np__perm_part *lo, int k, int l, uint64_t perm)
{
    pc->perm = perm;
    memcpy(pc->order, hi->order, NP_RANK_MAX_K);
    for (int i = 0; i < NP_RANK_MAX_K; i++)
        pc->digit[i] = hi->digit[i] | lo->digit[i];
    int head = k - l;
    for (int i = 0; i < l; i++)
        pc->order[head + i] = hi->order[head + lo->order[i]];
}

/* The rank of order[] with the element at position `from` moved to position
 * `to` (the others keeping their relative order), given perm = rank of order[].
 * Only the digits of positions between from and to change, so this costs
 * O(|from - to|) -- at most the board's width -- instead of O(k).
 * w[j] = (k-1-j)!. */
static inline uint64_t np__perm_after_move(const np__perm_cursor *pc, const uint64_t *w, int from,
                                           int to)
{
    const uint8_t *o = pc->order, *dg = pc->digit;
    unsigned s = o[from];
    int64_t r = (int64_t)pc->perm;
    if (to < from) {
        /* new order: o[..to-1], s, o[to..from-1], o[from+1..] */
        unsigned below = 0;
        for (int i = to; i < from; i++) {
            below += o[i] < s;
            /* position i+1 now holds o[i], which no longer has s after it */
            r += ((int64_t)dg[i] - (o[i] > s)) * (int64_t)w[i + 1] - (int64_t)dg[i] * (int64_t)w[i];
        }
        r += (int64_t)below * (int64_t)w[to] +
            (int64_t)dg[from] * ((int64_t)w[to] - (int64_t)w[from]);
    } else {
        /* new order: o[..from-1], o[from+1..to], s, o[to+1..] */
        unsigned below = 0;
        for (int i = from + 1; i <= to; i++) {
            below += o[i] < s;
            /* position i-1 now holds o[i], which now has s after it */
            r += ((int64_t)dg[i] + (o[i] > s)) * (int64_t)w[i - 1] - (int64_t)dg[i] * (int64_t)w[i];
        }
        r += -(int64_t)below * (int64_t)w[to] +
            (int64_t)dg[from] * ((int64_t)w[to] - (int64_t)w[from]);
    }
    return (uint64_t)r;
}

#endif
