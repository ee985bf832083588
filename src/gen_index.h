/* gen_index.h - the PDB generator's own numbering of placements while its BFS runs (not public API).
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

#include "npuzzle/board.h"
#include "npuzzle/rank.h"

/* Tables for one (n, k): read-only after np__gen_index_init(). */
typedef struct np__gen_index {
    int n, k;
    uint64_t ncombs; /* C(n,k) cell sets */
    uint64_t kfact;  /* k! orders */
    uint64_t binom[NP_MAX_CELLS + 1][NP_RANK_MAX_K + 1]; /* binom[a][b] = C(a,b) */
    uint64_t fact[NP_RANK_MAX_K + 1];
} np__gen_index;

/* Prepare tables for k tiles on n cells (the limits of np_ranker_init).
 * @return NP_OK or NP_EINVAL. */
int np__gen_index_init(np__gen_index *x, int n, int k);

/* Rank of a cell set given as a mask with exactly k bits, in 0 .. ncombs-1. */
uint64_t np__comb_rank(const np__gen_index *x, uint64_t mask);

/* Inverse of np__comb_rank: the mask of the cell set with that rank. */
uint64_t np__comb_unrank(const np__gen_index *x, uint64_t comb);

/* The order rank of the placement cells[0..k-1] (tile j on cells[j]) whose
 * cell set is `mask`, in 0 .. k!-1. */
uint64_t np__perm_rank(const np__gen_index *x, const uint8_t *cells, uint64_t mask);

/* Inverse of np__perm_rank: cells[0..k-1] from a cell set and an order rank. */
void np__perm_unrank(const np__gen_index *x, uint64_t mask, uint64_t perm, uint8_t *cells);

/* Decode an order rank of k tiles: order[0..k-1] and its digits digit[0..k-1]. */
void np__perm_order(int k, uint64_t perm, uint8_t *order, uint8_t *digit);

#endif
