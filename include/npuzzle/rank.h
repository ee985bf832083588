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
 * PDBs rank the cells' labels (np_geom.label, board.h: the rows as a snake),
 * not their numbers; "cells" here are whatever numbers the caller ranks.
 *
 * The order is the major part for the solver's sake: a move that does not
 * carry its tile past another tile of the pattern (every move along a row, a
 * vertical move at a row's turning end, and vertical moves over cells the
 * pattern does not hold) keeps the order, so the child's entry lies within
 * C(n,k) entries of the parent's -- 6.3 KiB of a 4-bit 8-tile table on 4x4 --
 * and usually on a page whose translation is still cached. The PDB generator
 * works on cell-set-major classes internally (the blank's regions depend on
 * the cell set only) and reorders at the end.
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
 *  and the order's rank, index = perm * ncombs + comb; with the order itself
 *  and its Lehmer digits, which let a step update perm without recounting:
 *  nibble j of `order` is the pattern index of the tile on the j-th smallest
 *  occupied cell, nibble j of `digit` how many tiles after it in that order
 *  have a smaller pattern index (perm = sum of digit_j * (k-1-j)!). */
typedef struct np_index_parts {
    uint64_t mask, comb, perm;
    uint64_t order, digit;
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
    /* Order: Lehmer code of which tile stands on the j-th smallest cell. A
     * tile's digit is how many later tiles are smaller: all smaller ones but
     * those already placed. */
    uint64_t order = 0, digit = 0, perm = 0;
    for (int t = 0; t < k; t++)
        order |= (uint64_t)t << (4 * __builtin_popcountll(mask & (((uint64_t)1 << cells[t]) - 1)));
    uint32_t used = 0;
    for (int j = 0; j < k; j++) {
        const unsigned s = (unsigned)(order >> (4 * j)) & 15;
        const unsigned d = s - (unsigned)__builtin_popcount(used & ((1u << s) - 1));
        digit |= (uint64_t)d << (4 * j);
        perm += d * r->fact[k - 1 - j];
        used |= 1u << s;
    }
    out->mask = mask;
    out->comb = comb;
    out->perm = perm;
    out->order = order;
    out->digit = digit;
}

/*! The same as np_rank(), inline for the solver's inner loop. */
static inline uint64_t np_rank_inline(const np_ranker *r, const uint8_t *cells)
{
    np_index_parts pt;
    np_rank_parts(r, cells, &pt);
    return np_rank_index(r, &pt);
}

/* Nibble j of v replaced by x (x < 16). */
static inline uint64_t np__set_nibble(uint64_t v, int j, uint64_t x)
{
    return (v & ~((uint64_t)15 << (4 * j))) | x << (4 * j);
}

/*! The parts of a placement after one of its tiles steps from cell `from` to
 *  the free cell `to`, given the parts before. O(1) when no cell of the
 *  placement lies strictly between the two (every step along a row; on a
 *  board, vertical steps over cells the pattern does not hold): the order is
 *  unchanged and the cell set's rank changes in one term. Otherwise the tile
 *  passes the m tiles standing between, which shift one place the other way:
 *  only those m + 1 places of the order, their digits, and their terms of the
 *  cell set's rank change, O(m). */
static inline void np_rank_step(const np_ranker *r, const np_index_parts *before, int from, int to,
                                np_index_parts *after)
{
    const uint64_t mask = before->mask;
    const int lo = from < to ? from : to, hi = from ^ to ^ lo;
    const uint64_t span = (((uint64_t)1 << hi) - 1) & ~(((uint64_t)2 << lo) - 1);
    uint64_t passed = mask & span;
    /* a: the tile's place among the occupied cells (0-based) */
    const int a = __builtin_popcountll(mask & (((uint64_t)1 << from) - 1));
    after->mask = mask ^ ((uint64_t)1 << from) ^ ((uint64_t)1 << to);
    if (__builtin_expect(!passed, 1)) {
        after->comb = before->comb - r->binom[from][a + 1] + r->binom[to][a + 1];
        after->perm = before->perm;
        after->order = before->order;
        after->digit = before->digit;
        return;
    }
    const int k = r->k;
    const uint64_t *w = r->fact;  /* place j weighs w[k - 1 - j] */
    uint64_t order = before->order, digit = before->digit;
    const uint64_t x = (order >> (4 * a)) & 15, dx = (digit >> (4 * a)) & 15;
    uint64_t comb = before->comb - r->binom[from][a + 1];
    uint64_t perm = before->perm - dx * w[k - 1 - a];  /* unsigned: wraps back into range */
    uint64_t smaller = 0;  /* passed tiles with a smaller pattern index than x */
    int b;
    /* Two mirrored loops, not one with a direction variable: merged, the
     * step cost 2 % more search time (Korf100 and 6-6-3, alternated runs). */
    if (to > from) {
        /* places a+1 .. b move down one; x lands on b. A passed tile y now
         * has x after it: its digit gains [x < y]. */
        b = a + __builtin_popcountll(passed);
        for (int j = a + 1; j <= b; j++) {
            const int c = __builtin_ctzll(passed);
            passed &= passed - 1;
            const uint64_t y = (order >> (4 * j)) & 15, dy = (digit >> (4 * j)) & 15;
            const uint64_t ny = dy + (x < y);
            comb += r->binom[c][j] - r->binom[c][j + 1];
            perm += ny * w[k - j] - dy * w[k - 1 - j];
            smaller += y < x;
            order = np__set_nibble(order, j - 1, y);
            digit = np__set_nibble(digit, j - 1, ny);
        }
        const uint64_t nx = dx - smaller;
        order = np__set_nibble(order, b, x);
        digit = np__set_nibble(digit, b, nx);
        perm += nx * w[k - 1 - b];
    } else {
        /* places b .. a-1 move up one; x lands on b. A passed tile y had x
         * after it and now has not. */
        b = a - __builtin_popcountll(passed);
        for (int j = a - 1; j >= b; j--) {
            const int c = 63 - __builtin_clzll(passed);
            passed &= ~((uint64_t)1 << c);
            const uint64_t y = (order >> (4 * j)) & 15, dy = (digit >> (4 * j)) & 15;
            const uint64_t ny = dy - (x < y);
            comb += r->binom[c][j + 2] - r->binom[c][j + 1];
            perm += ny * w[k - 2 - j] - dy * w[k - 1 - j];
            smaller += y < x;
            order = np__set_nibble(order, j + 1, y);
            digit = np__set_nibble(digit, j + 1, ny);
        }
        const uint64_t nx = dx + smaller;
        order = np__set_nibble(order, b, x);
        digit = np__set_nibble(digit, b, nx);
        perm += nx * w[k - 1 - b];
    }
    after->comb = comb + r->binom[to][b + 1];
    after->perm = perm;
    after->order = order;
    after->digit = digit;
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
