/* rank.h - ranking and unranking placements of k tiles on n cells (partial permutations).
 *
 * A placement lists, for each of the k pattern tiles in pattern order, the cell
 * it stands on (distinct cells, each < n). Its index is
 *
 *     index = perm_rank(order) * C(n,k) + comb_rank(set of occupied cells)
 *
 * where comb_rank is the combinatorial-number-system rank of the occupied cell
 * set among the C(n,k) sets, and perm_rank is the rank among the k! orders of
 * which tile sits on the j-th smallest occupied cell. The index is a bijection
 * onto 0 .. n!/(n-k)! - 1.
 *
 * The order is the major part for the solver's sake: a move that does not
 * carry its tile past another tile of the pattern (every move along a row,
 * and vertical moves over cells the pattern does not hold) keeps the order, so
 * the child's entry lies within C(n,k) entries of the parent's -- 6.3 KiB of a
 * 4-bit 8-tile table on 4x4 -- and usually on a page whose translation is
 * still cached. The PDB generator works on cell-set-major classes internally
 * (the blank's regions depend on the cell set only) and reorders at the end.
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
} np_ranker;

/*! Prepare tables for k tiles on n cells (1 <= k <= min(n, NP_RANK_MAX_K),
 *  n <= NP_MAX_CELLS, count below 2^63). @return NP_OK or NP_EINVAL. */
int np_ranker_init(np_ranker *r, int n, int k);

/*! @return the index of the placement cells[0..k-1]. O(k), no allocation. */
uint64_t np_rank(const np_ranker *r, const uint8_t *cells);

/*! The parts of a placement's index: the cell set as a mask and its rank,
 *  and the order's rank. index = perm * ncombs + comb. */
typedef struct np_index_parts {
    uint64_t mask, comb, perm;
} np_index_parts;

/*! @return the index made of parts `pt` (see np_index_parts). */
static inline uint64_t np_rank_index(const np_ranker *r, const np_index_parts *pt)
{
    return pt->perm * r->ncombs + pt->comb;
}

/*! The parts of np_rank() of the placement cells[0..k-1]. Inline, for the solver. */
static inline void np_rank_parts(const np_ranker *r, const uint8_t *cells, np_index_parts *out)
{
    const int k = r->k;
    uint64_t mask = 0;
    for (int t = 0; t < k; t++)
        mask |= (uint64_t)1 << cells[t];
    /* Cell set: combinatorial number system over the cells in increasing order. */
    uint64_t comb = 0;
    uint64_t m = mask;
    for (int i = 1; m; i++) {
        comb += r->binom[__builtin_ctzll(m)][i];
        m &= m - 1;
    }
    /* Order: Lehmer code of which tile stands on the j-th smallest cell. */
    uint8_t order[NP_RANK_MAX_K];
    for (int t = 0; t < k; t++)
        order[__builtin_popcountll(mask & (((uint64_t)1 << cells[t]) - 1))] = (uint8_t)t;
    uint64_t perm = 0;
    uint32_t used = 0;
    for (int j = 0; j < k; j++) {
        unsigned s = order[j];
        perm = perm * (uint64_t)(k - j) + (s - (unsigned)__builtin_popcount(used & ((1u << s) - 1)));
        used |= 1u << s;
    }
    out->mask = mask;
    out->comb = comb;
    out->perm = perm;
}

/*! The same as np_rank(), inline for the solver's inner loop. */
static inline uint64_t np_rank_inline(const np_ranker *r, const uint8_t *cells)
{
    np_index_parts pt;
    np_rank_parts(r, cells, &pt);
    return np_rank_index(r, &pt);
}

/*! The parts of a placement after one of its tiles steps from cell `from` to
 *  the free cell `to`, given the parts before and `cells`, the placement
 *  after the step. When no cell of the placement lies strictly
 *  between the two (every step along a row; on a board, vertical steps over
 *  cells the pattern does not hold) the order is unchanged and the cell set's
 *  rank changes in one term: O(1). Otherwise the parts are recomputed. */
static inline void np_rank_step(const np_ranker *r, const np_index_parts *before, int from, int to,
                                const uint8_t *cells, np_index_parts *after)
{
    const uint64_t mask = before->mask;
    const int lo = from < to ? from : to, hi = from ^ to ^ lo;
    const uint64_t span = (((uint64_t)1 << hi) - 1) & ~(((uint64_t)2 << lo) - 1);
    if (!(mask & span)) {
        /* the tile keeps its place j among the occupied cells */
        const int j = __builtin_popcountll(mask & (((uint64_t)1 << from) - 1)) + 1;
        after->mask = mask ^ ((uint64_t)1 << from) ^ ((uint64_t)1 << to);
        after->comb = before->comb - r->binom[from][j] + r->binom[to][j];
        after->perm = before->perm;
    } else {
        np_rank_parts(r, cells, after);
    }
}

/*! Inverse of np_rank: fill cells[0..k-1] for index < r->count. O(k + n). */
void np_unrank(const np_ranker *r, uint64_t index, uint8_t *cells);

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
