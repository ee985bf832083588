/* rank.c - the placement index: ranking, unranking, walking in index order, step tables (see
 * rank.h). */
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
    uint64_t count = 1;
    for (int i = 0; i < k; i++)
        if (__builtin_mul_overflow(count, (uint64_t)(n - i), &count) ||
            count >= (UINT64_C(1) << 63))
            return NP_EINVAL;
    r->count = count;
    r->weight[0] = 1;
    for (int j = 1; j < k; j++)
        r->weight[j] = r->weight[j - 1] * (uint64_t)(n - k + j);
    return NP_OK;
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

/* Tile t = order[p] on c_p has digit c_p - inv_p: of the c_p cells below
 * its own, the ones that heavier tiles hold are exactly the cells c_i,
 * i < p, of tiles order[i] > t. */
void np_rank_linear(const np_ranker *r, const uint8_t *order, uint64_t *coef, uint64_t *offset)
{
    uint64_t off = 0;
    for (int p = 0; p < r->k; p++) {
        uint64_t inv = 0;
        for (int i = 0; i < p; i++)
            inv += order[i] > order[p];
        coef[p] = r->weight[order[p]];
        off += inv * coef[p];
    }
    *offset = off;
}

void np_rank_iter_init(np_rank_iter *it, const np_ranker *r, uint64_t start)
{
    it->k = r->k;
    it->board = ~UINT64_C(0) >> (64 - r->n);
    np_unrank(r, start, it->cell);
    uint64_t held = 0;
    for (int j = r->k - 1; j >= 0; j--) {
        it->above[j] = held;
        held |= UINT64_C(1) << it->cell[j];
    }
}

int np_rank_steps_init(np_rank_steps *s, const np_geom *g, const uint8_t *label)
{
    memset(s, 0, sizeof *s);
    for (int c = 0; c < g->cells; c++)
        for (int d = 0; d < 4; d++) {
            const int to = g->nbr[c][NP_DIR_OPPOSITE(d)]; /* where the blank was */
            if (to < 0)
                continue;
            s->delta[c][d] = (int8_t)(label[to] - label[c]);
            int n = 0;
            for (int x = 0; x < g->cells; x++) {
                if (x == c || x == to || (label[x] > label[c]) == (label[x] > label[to]))
                    continue;
                if (n == 2 * NP_MAX_SIDE)
                    return NP_EINVAL;
                s->between[c][d][n++] = (uint8_t)x;
            }
            s->nbetween[c][d] = (uint8_t)n;
        }
    return NP_OK;
}

void np_rank_tile_tables(const np_ranker *r, const uint8_t *tiles, uint64_t weight[NP_MAX_CELLS],
                         int64_t pass[NP_MAX_CELLS][NP_MAX_CELLS])
{
    for (int i = 0; i < r->k; i++) {
        weight[tiles[i]] = r->weight[i];
        for (int j = 0; j < r->k; j++)
            if (j != i)
                pass[tiles[i]][tiles[j]] = np_rank_pass(r, i, j);
    }
}
