/* rank.c - ranking and unranking placements of k tiles on n cells (see rank.h). */
#include "npuzzle/rank.h"

#include <string.h>

#include "npuzzle/error.h"

int np_ranker_init(np_ranker *r, int n, int k)
{
    if (n < 1 || n > NP_MAX_CELLS || k < 1 || k > n || k > NP_RANK_MAX_K)
        return NP_EINVAL;
    memset(r, 0, sizeof *r);
    r->n = n;
    r->k = k;
    /* C(a,b) for b <= 16 and a <= 64 stays below C(64,16) < 2^49: no overflow. */
    for (int a = 0; a <= NP_MAX_CELLS; a++) {
        r->binom[a][0] = 1;
        for (int b = 1; b <= NP_RANK_MAX_K && b <= a; b++)
            r->binom[a][b] = r->binom[a - 1][b - 1] + r->binom[a - 1][b]; /* zero when b > a-1 */
    }
    r->fact[0] = 1;
    for (int i = 1; i <= NP_RANK_MAX_K; i++)
        r->fact[i] = r->fact[i - 1] * (uint64_t)i;
    uint64_t count = 1;
    for (int i = 0; i < k; i++)
        if (__builtin_mul_overflow(count, (uint64_t)(n - i), &count) || count >= (UINT64_C(1) << 63))
            return NP_EINVAL;
    r->count = count;
    r->weight[0] = 1;
    for (int j = 1; j < k; j++)
        r->weight[j] = r->weight[j - 1] * (uint64_t)(n - k + j);
    r->ncombs = r->binom[n][k];
    r->kfact = r->fact[k];
    return NP_OK;
}

/* Combinatorial number system: the sorted cells c_1 < ... < c_k have rank
 * sum C(c_i, i). Ranks follow the numeric order of the masks (colex order). */
uint64_t np_rank_comb(const np_ranker *r, uint64_t mask)
{
    uint64_t rank = 0;
    for (int i = 1; mask; i++) {
        rank += r->binom[__builtin_ctzll(mask)][i];
        mask &= mask - 1;
    }
    return rank;
}

uint64_t np_unrank_comb(const np_ranker *r, uint64_t comb)
{
    /* Greedy from the top: the largest cell c with C(c,i) <= rest is c_i.
     * c only decreases, so the whole loop is O(n + k). */
    uint64_t mask = 0;
    int c = r->n - 1;
    for (int i = r->k; i >= 1; i--) {
        while (r->binom[c][i] > comb)
            c--;
        comb -= r->binom[c][i];
        mask |= UINT64_C(1) << c;
        c--;
    }
    return mask;
}

/* Position of the d-th (from 0) set bit of a mask of at most 16 bits, by
 * halving: O(log k) instead of clearing d low bits one by one. */
static inline int select_bit16(uint32_t m, int d)
{
    int pos = 0;
    for (int w = 8; w >= 1; w >>= 1) {
        int low = __builtin_popcount(m & ((1u << w) - 1));
        if (d >= low) {
            d -= low;
            m >>= w;
            pos += w;
        }
    }
    return pos;
}

/* The order part: order[j] = pattern index of the tile on the j-th smallest
 * occupied cell. Its rank is the lexicographic (Lehmer code) rank, digit j
 * being the number of not-yet-used indices below order[j]; a bit mask of the
 * used indices and a popcount make each digit O(1). */
uint64_t np_rank_perm(const np_ranker *r, const uint8_t *cells, uint64_t mask)
{
    int k = r->k;
    uint8_t order[NP_RANK_MAX_K];
    for (int t = 0; t < k; t++) {
        uint64_t below = mask & ((UINT64_C(1) << cells[t]) - 1);
        order[__builtin_popcountll(below)] = (uint8_t)t;
    }
    uint64_t rank = 0;
    uint32_t used = 0;
    for (int j = 0; j < k; j++) {
        unsigned s = order[j];
        unsigned digit = s - (unsigned)__builtin_popcount(used & ((1u << s) - 1));
        used |= 1u << s;
        rank = rank * (uint64_t)(k - j) + digit;
    }
    return rank;
}

void np_unrank_perm(const np_ranker *r, uint64_t mask, uint64_t perm, uint8_t *cells)
{
    int k = r->k;
    uint8_t digit[NP_RANK_MAX_K];
    for (int j = k - 1; j >= 0; j--) {
        uint64_t radix = (uint64_t)(k - j);
        digit[j] = (uint8_t)(perm % radix);
        perm /= radix;
    }
    uint32_t unused = (1u << k) - 1;
    for (int j = 0; j < k; j++) {
        int t = select_bit16(unused, digit[j]);
        unused &= ~(1u << t);
        cells[t] = (uint8_t)__builtin_ctzll(mask);
        mask &= mask - 1;
    }
}

uint64_t np_rank(const np_ranker *r, const uint8_t *cells)
{
    return np_rank_inline(r, cells);
}

void np_unrank(const np_ranker *r, uint64_t index, uint8_t *cells)
{
    uint64_t held = 0;
    for (int j = r->k - 1; j >= 0; j--) {
        /* tile j stands on the digit_j-th cell (from 0) not held by heavier tiles */
        uint64_t digit = index / r->weight[j];
        index -= digit * r->weight[j];
        int c = 0;
        for (;; c++)
            if (!(held >> c & 1) && digit-- == 0)
                break;
        cells[j] = (uint8_t)c;
        held |= UINT64_C(1) << c;
    }
}
