/* rank.h - ranking and unranking placements of k tiles on n cells (partial permutations).
 *
 * A placement lists, for each of the k pattern tiles in pattern order, the cell
 * it stands on (distinct cells, each < n). Its index is a mixed-radix number
 * with one digit per tile, the last tile the most significant:
 *
 *     index    = sum over j of digit_j * weight_j
 *     digit_j  = the cells below tile j's cell not held by tiles j+1 .. k-1
 *                (0 <= digit_j < n-k+1+j)
 *     weight_0 = 1,  weight_j = weight_{j-1} * (n-k+j)
 *
 * a bijection onto 0 .. n!/(n-k)! - 1 (the last tile's digit is its cell).
 *
 * PDBs rank the cells' labels (np_geom.label, board.h: the rows as a snake),
 * not their numbers; "cells" here are whatever numbers the caller ranks.
 *
 * For the solver: when tile i steps from cell a to a free cell b, only
 * its own digit and the digits of the lighter tiles it passes change, so
 *
 *     index' - index = weight_i * (b - a) + sign(b - a) * sum of pass(i, j)
 *                      over the pattern tiles j on cells strictly between
 *     pass(i, j)     = weight_j when j < i, -weight_i when j > i
 *
 * (np_rank_pass, np_rank_moved): no recount, no parts to carry, and a step
 * along a snake's row (no cell between) moves the entry by weight_i only --
 * within a cache line for the lightest tiles. The PDB generator numbers
 * placements by (cell set, order) internally (np_rank_comb, np_rank_perm)
 * and reorders at the end.
 */
#ifndef NPUZZLE_RANK_H
#define NPUZZLE_RANK_H

#include <stdint.h>

#include "npuzzle/board.h"

#define NP_RANK_MAX_K 16

/*! Tables for one (n, k). A transparent value type; read-only after
 *  np_ranker_init(), shareable among threads. */
typedef struct np_ranker {
    int n, k;
    uint64_t count;   /*!< n!/(n-k)! placements */
    uint64_t ncombs;  /*!< C(n,k) cell sets */
    uint64_t kfact;   /*!< k! orders */
    uint64_t binom[NP_MAX_CELLS + 1][NP_RANK_MAX_K + 1]; /*!< binom[a][b] = C(a,b) */
    uint64_t fact[NP_RANK_MAX_K + 1];
    uint64_t weight[NP_RANK_MAX_K]; /*!< weight[j] of tile j's digit (above) */
} np_ranker;

/*! Prepare tables for k tiles on n cells (1 <= k <= min(n, NP_RANK_MAX_K),
 *  n <= NP_MAX_CELLS, count below 2^63). @return NP_OK or NP_EINVAL. */
int np_ranker_init(np_ranker *r, int n, int k);

/*! @return the index of the placement cells[0..k-1]. O(k), no allocation. */
uint64_t np_rank(const np_ranker *r, const uint8_t *cells);

/*! The same as np_rank(), inline. */
static inline uint64_t np_rank_inline(const np_ranker *r, const uint8_t *cells)
{
    uint64_t held = 0, index = 0;
    for (int j = r->k - 1; j >= 0; j--) {
        const uint64_t bit = (uint64_t)1 << cells[j];
        index += (cells[j] - (uint64_t)__builtin_popcountll(held & (bit - 1))) * r->weight[j];
        held |= bit;
    }
    return index;
}

/*! What pattern tile j on a cell strictly between the two cells of a step of
 *  tile i adds to the step's sum (see the top of this file); j != i. */
static inline int64_t np_rank_pass(const np_ranker *r, int i, int j)
{
    return j < i ? (int64_t)r->weight[j] : -(int64_t)r->weight[i];
}

/*! The index after a tile of weight `weight` (r->weight[i] for tile i) of
 *  the placement with index `index` steps from cell a to the free cell b,
 *  `step` = b - a, `passed` the sum of np_rank_pass(r, i, j) over the
 *  pattern tiles j on the cells strictly between a and b. O(1). */
static inline uint64_t np_rank_moved(uint64_t index, uint64_t weight, int step, int64_t passed)
{
    return index + (uint64_t)((int64_t)weight * step + (step > 0 ? passed : -passed));
}

/*! Inverse of np_rank: fill cells[0..k-1] for index < r->count. O(k n). */
void np_unrank(const np_ranker *r, uint64_t index, uint8_t *cells);

/* The generator's numbering of a placement: its cell set and the order of
 * the tiles on it, placement = comb * k! + perm (pdb_gen.c). */

/*! Rank of a cell set given as a bit mask with exactly k bits, in 0..ncombs-1. */
uint64_t np_rank_comb(const np_ranker *r, uint64_t mask);

/*! Inverse of np_rank_comb: the bit mask of the cell set with that rank. */
uint64_t np_unrank_comb(const np_ranker *r, uint64_t comb);

/*! Rank of the order part: cells[] as above, `mask` their cell set.
 *  @return a value in 0..k!-1. */
uint64_t np_rank_perm(const np_ranker *r, const uint8_t *cells, uint64_t mask);

/*! Inverse of np_rank_perm: fill cells[0..k-1] from a cell set and an order rank. */
void np_unrank_perm(const np_ranker *r, uint64_t mask, uint64_t perm, uint8_t *cells);

#endif
