/* gen_index.c - the PDB generator's (cell set, order) numbering of placements (see gen_index.h). */
#include "gen_index.h"

#include <string.h>

#include "npuzzle/error.h"

int np__gen_index_init(np__gen_index *x, int n, int k)
{
    np_ranker r;
    if (np_ranker_init(&r, n, k) != NP_OK)
        return NP_EINVAL;
    memset(x, 0, sizeof *x);
    x->n = n;
    x->k = k;
    /* C(a,b) for b <= 16 and a <= 64 stays below C(64,16) < 2^49: no overflow. */
    for (int a = 0; a <= NP_MAX_CELLS; a++) {
        x->binom[a][0] = 1;
        for (int b = 1; b <= NP_RANK_MAX_K && b <= a; b++)
            x->binom[a][b] = x->binom[a - 1][b - 1] + x->binom[a - 1][b]; /* zero when b > a-1 */
    }
    x->fact[0] = 1;
    for (int i = 1; i <= NP_RANK_MAX_K; i++)
        x->fact[i] = x->fact[i - 1] * (uint64_t)i;
    x->ncombs = x->binom[n][k];
    x->kfact = x->fact[k];
    return NP_OK;
}

void np__region_adjacency(const np_geom *g, uint64_t *adj)
{
    for (int c = 0; c < g->cells; c++) {
        adj[c] = 0;
        for (int d = 0; d < 4; d++)
            if (g->nbr[c][d] >= 0)
                adj[c] |= UINT64_C(1) << g->nbr[c][d];
    }
}

int np__label_regions_adj(const uint64_t *adj, int n, uint64_t occupied, uint8_t *region)
{
    memset(region, NP__NO_REGION, (size_t)n);
    uint64_t free = (n == 64 ? ~UINT64_C(0) : (UINT64_C(1) << n) - 1) & ~occupied;
    int nreg = 0;
    while (free) {
        /* the region of the smallest free cell: regions come in order of
         * their smallest cells */
        uint64_t reg = free & -free, front = reg;
        while (front) {
            uint64_t next = 0;
            for (uint64_t f = front; f; f &= f - 1)
                next |= adj[__builtin_ctzll(f)];
            front = next & free & ~reg;
            reg |= front;
        }
        free &= ~reg;
        for (; reg; reg &= reg - 1)
            region[__builtin_ctzll(reg)] = (uint8_t)nreg;
        nreg++;
    }
    return nreg;
}

uint64_t np__comb_unrank(const np__gen_index *x, uint64_t comb)
{
    /* Greedy from the top: the largest cell c with C(c,i) <= rest is c_i.
     * c only decreases, so the whole loop is O(n + k). */
    uint64_t mask = 0;
    int c = x->n - 1;
    for (int i = x->k; i >= 1; i--) {
        while (x->binom[c][i] > comb)
            c--;
        comb -= x->binom[c][i];
        mask |= UINT64_C(1) << c;
        c--;
    }
    return mask;
}

/* A bit mask of the used indices and a popcount make each digit O(1). */
uint64_t np__perm_rank(const np__gen_index *x, const uint8_t *cells, uint64_t mask)
{
    int k = x->k;
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

void np__perm_order(int k, uint64_t perm, uint8_t *order, uint8_t *digit)
{
    for (int j = k - 1; j >= 0; j--) {
        uint64_t radix = (uint64_t)(k - j);
        digit[j] = (uint8_t)(perm % radix);
        perm /= radix;
    }
    /* digit[j] picks among the indices not used yet, kept sorted in rest[] */
    uint8_t rest[NP_RANK_MAX_K];
    for (int j = 0; j < k; j++)
        rest[j] = (uint8_t)j;
    for (int j = 0; j < k; j++) {
        int d = digit[j];
        order[j] = rest[d];
        memmove(rest + d, rest + d + 1, (size_t)(k - 1 - j - d));
    }
}

void np__perm_unrank(const np__gen_index *x, uint64_t mask, uint64_t perm, uint8_t *cells)
{
    uint8_t order[NP_RANK_MAX_K], digit[NP_RANK_MAX_K];
    np__perm_order(x->k, perm, order, digit);
    for (int j = 0; j < x->k; j++) {
        cells[order[j]] = (uint8_t)__builtin_ctzll(mask);
        mask &= mask - 1;
    }
}
