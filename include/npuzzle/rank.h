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
 * within a cache line for the lightest tiles. np_rank_steps and
 * np_rank_tile_tables hold those terms for every step of a board, for the
 * search.
 *
 * This module owns the index: ranking and unranking (np_rank, np_unrank,
 * np_rank_cells_of), walking all placements in index order (np_rank_iter,
 * for packing and histograms), the index as a linear function of the cells
 * for a fixed order of the tiles (np_rank_linear, for the generator's final
 * renumbering), and the step tables. The PDB generator numbers placements its
 * own way while it runs (src/gen_index.h, not public API).
 */
#ifndef NPUZZLE_RANK_H
#define NPUZZLE_RANK_H

#include <stdint.h>

#include "npuzzle/board.h"

#ifdef __cplusplus
extern "C" {
#endif

#define NP_RANK_MAX_K 16

/*! Tables for one (n, k). A transparent value type; read-only after
 *  np_ranker_init(), shareable among threads. */
typedef struct np_ranker {
    int n, k;
    uint64_t count;                 /*!< n!/(n-k)! placements */
    uint64_t weight[NP_RANK_MAX_K]; /*!< weight[j] of tile j's digit (above) */
} np_ranker;

/*! Prepare tables for k tiles on n cells (1 <= k <= min(n, NP_RANK_MAX_K),
 *  n <= NP_MAX_CELLS, count below 2^63) in the caller's `r`; nothing is
 *  allocated. @return NP_OK, or NP_EINVAL when n or k is out of range (r
 *  untouched) or the count reaches 2^63 (r then partly written: not usable). */
int np_ranker_init(np_ranker *r, int n, int k);

/*! @return the index of the placement cells[0..k-1] (distinct cells < n; not
 *  checked). O(k), no allocation. Cannot fail. */
uint64_t np_rank(const np_ranker *r, const uint8_t *cells);

/*! The same as np_rank(), inline. Cannot fail. */
static inline uint64_t np_rank_inline(const np_ranker *r, const uint8_t *cells)
{
    uint64_t held = 0, index = 0;
    for (int j = r->k - 1; j >= 0; j--) {
        /* r->k <= NP_RANK_MAX_K (np_ranker_init): the analyser, not seeing it, reads past
         * cells[NP_RANK_MAX_K] in its callers */
        /* NOLINTNEXTLINE(clang-analyzer-core.UndefinedBinaryOperatorResult) */
        const uint64_t bit = (uint64_t)1 << cells[j];
        index += (cells[j] - (uint64_t)__builtin_popcountll(held & (bit - 1))) * r->weight[j];
        held |= bit;
    }
    return index;
}

/*! What pattern tile j on a cell strictly between the two cells of a step of
 *  tile i adds to the step's sum (see the top of this file); j != i. Cannot fail. */
static inline int64_t np_rank_pass(const np_ranker *r, int i, int j)
{
    return j < i ? (int64_t)r->weight[j] : -(int64_t)r->weight[i];
}

/*! The index after a tile of weight `weight` (r->weight[i] for tile i) of
 *  the placement with index `index` steps from cell a to the free cell b,
 *  `step` = b - a, `passed` the sum of np_rank_pass(r, i, j) over the
 *  pattern tiles j on the cells strictly between a and b. O(1). Cannot fail. */
static inline uint64_t np_rank_moved(uint64_t index, uint64_t weight, int step, int64_t passed)
{
    return index + (uint64_t)((int64_t)weight * step + (step > 0 ? passed : -passed));
}

/*! Inverse of np_rank: fill the caller's cells[0..k-1] for index < r->count
 *  (not checked). O(k n). Cannot fail. */
void np_unrank(const np_ranker *r, uint64_t index, uint8_t *cells);

/*! The index of a board's pattern: pattern tile j stands on cell
 *  pos[tiles[j]], and the index ranks the cells' numbers label[c] (for PDBs
 *  np_geom.label, board.h; for the mirrored lookup the labels of the mirror
 *  cells). O(k). Cannot fail. */
static inline uint64_t np_rank_cells_of(const np_ranker *r, const uint8_t *label,
                                        const uint8_t *pos, const uint8_t *tiles)
{
    uint8_t cells[NP_RANK_MAX_K];
    for (int j = 0; j < r->k; j++)
        cells[j] = label[pos[tiles[j]]];
    return np_rank_inline(r, cells);
}

/*! The index as a linear function of the cells for one order of the tiles:
 *  when the cells of a placement, sorted, are c_0 < c_1 < ... < c_{k-1} and
 *  pattern tile order[p] stands on c_p (order a permutation of 0..k-1),
 *  index = sum over p of c_p * coef[p] - offset. coef (k entries) and offset
 *  are the caller's. O(k^2). Cannot fail. */
void np_rank_linear(const np_ranker *r, const uint8_t *order, uint64_t *coef, uint64_t *offset);

/* ---- walking all placements in index order ------------------------------ */

/*! A cursor over indices start, start+1, ...: cell[j] is tile j's cell. */
typedef struct np_rank_iter {
    int k;
    uint64_t board;                /*!< the n cells, as a mask */
    uint8_t cell[NP_RANK_MAX_K];   /*!< tile j's cell */
    uint64_t above[NP_RANK_MAX_K]; /*!< the cells of tiles j+1 .. k-1 */
} np_rank_iter;

/*! Start the caller's cursor `it` at index `start` (< r->count, not checked).
 *  `it` copies what it needs: `r` need not outlive it. O(k n). Cannot fail. */
void np_rank_iter_init(np_rank_iter *it, const np_ranker *r, uint64_t start);

/*! Step to the next index. The index is a mixed-radix number with tile 0's
 *  digit the least significant, so this is an odometer: tile 0 moves to the
 *  next cell above its own that the heavier tiles leave free; when it has
 *  none, the lightest tile j that has one moves up to it and tiles 0..j-1
 *  restart on the lowest cells left free, heaviest lowest (tile j-1 on the
 *  lowest, tile 0 on the highest of them).
 *  @return how many tiles moved (tiles 0 .. m-1; usually 1), or 0 past the
 *  last index (the cursor then stays where it was; not an np_error). Cannot
 *  fail. */
static inline int np_rank_iter_next(np_rank_iter *it)
{
    for (int j = 0; j < it->k; j++) {
        /* the free cells above tile j's: two shifts, as cell + 1 may be 64 */
        const uint64_t up = it->board & ~it->above[j] & (~UINT64_C(0) << it->cell[j] << 1);
        if (!up)
            continue;
        it->cell[j] = (uint8_t)__builtin_ctzll(up);
        for (int i = j - 1; i >= 0; i--) {
            it->above[i] = it->above[i + 1] | UINT64_C(1) << it->cell[i + 1];
            it->cell[i] = (uint8_t)__builtin_ctzll(~it->above[i]);
        }
        return j + 1;
    }
    return 0;
}

/* ---- the tables a search steps indices with ----------------------------- */

/*! The cell terms of np_rank_moved for every step of a tile on a board whose
 *  cells are numbered label[c] for the index. For the tile on cell c sliding
 *  into the blank that moved to c in direction d (the tile goes to
 *  g->nbr[c][NP_DIR_OPPOSITE(d)]): delta[c][d] is the step (label of the
 *  new cell - label of c), and between[c][d][0 .. nbetween[c][d]) the cells
 *  whose labels lie strictly between, whose tiles add their np_rank_pass. */
typedef struct np_rank_steps {
    int8_t delta[NP_MAX_CELLS][4];
    uint8_t nbetween[NP_MAX_CELLS][4];
    uint8_t between[NP_MAX_CELLS][4][2 * NP_MAX_SIDE];
} np_rank_steps;

/*! Fill the caller's `s` for geometry `g` (row-major cells) and numbering
 *  label[0..cells); nothing is allocated.
 *  @return NP_OK, or NP_EINVAL when a step passes more than 2 * NP_MAX_SIDE
 *  cells (a numbering that does not follow the rows; `s` is then partly
 *  written: not usable). */
int np_rank_steps_init(np_rank_steps *s, const np_geom *g, const uint8_t *label);

/*! The tile terms of np_rank_moved for one pattern, tiles[0..r->k-1] in index
 *  order: weight[tiles[i]] = r->weight[i], and pass[tiles[i]][tiles[j]] =
 *  np_rank_pass(r, i, j) for j != i. Other entries are left as they are, so
 *  one pair of tables serves a whole partition (zero them first: a tile of
 *  another pattern then passes for 0). Both tables are the caller's. Cannot fail. */
void np_rank_tile_tables(const np_ranker *r, const uint8_t *tiles, uint64_t weight[NP_MAX_CELLS],
                         int64_t pass[NP_MAX_CELLS][NP_MAX_CELLS]);

#ifdef __cplusplus
}
#endif

#endif
