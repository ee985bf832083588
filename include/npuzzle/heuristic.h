/* heuristic.h - admissible estimates: Manhattan distance, linear conflict, additive PDB sums. */
#ifndef NPUZZLE_HEURISTIC_H
#define NPUZZLE_HEURISTIC_H

#include <stdbool.h>

#include "npuzzle/board.h"
#include "npuzzle/pattern.h"
#include "npuzzle/pdbset.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum np_hkind {
    NP_H_MD = 0, /*!< Manhattan distance */
    NP_H_LC = 1, /*!< Manhattan distance + linear conflicts in rows and columns */
    NP_H_PDB = 2 /*!< sum of additive pattern databases, maxed with the reflected sum */
} np_hkind;

/*! Parse "md" (or "manhattan"), "lc" (or "linear-conflict") or "pdb"; exact,
 *  case-sensitive, `name` not NULL.
 *  @return NP_OK, or NP_EINVAL for any other name (*out untouched). */
int np_hkind_parse(np_hkind *out, const char *name);
/*! @return "md", "lc" or "pdb" (static; "?" for any other value). Cannot fail. */
const char *np_hkind_name(np_hkind k);

/*! Additive PDB estimate of `b` computed from scratch: the sum of the
 *  patterns' lookups, maxed (unless `no_reflect`, or the board is not square)
 *  with the same sum looked up on the transposed, relabelled board. `b` must be
 *  valid for the set's board; `set` is only read. Cannot fail. */
int np_h_pdb(const np_pdbset *set, const np_board *b, bool no_reflect);

/*! The sum of the patterns' lookups of `b` alone (no reflection). `b` must be
 *  valid for the set's board. Cannot fail. */
int np_h_pdb_plain(const np_pdbset *set, const np_board *b);

/*! The dual lookup of `b` (Felner, Zahavi, Holte & Schaeffer 2005) in its
 *  admissible form: the patterns' lookups of the inverse permutation, where
 *  the blank's cell allows them, Manhattan distances elsewhere (why it is
 *  admissible: src/pdbset_internal.h); maxed with the same on the mirror
 *  unless `no_reflect` or the board is not square. The regular lookups are
 *  not included (max it with np_h_pdb). `b` must be valid for the set's
 *  board. Cannot fail. */
int np_h_pdb_dual(const np_pdbset *set, const np_board *b, bool no_reflect);

/*! Manhattan distance of `b` (tiles only, blank excluded). Cannot fail. */
int np_h_manhattan(const np_board *b, const np_geom *g);

/*! Linear conflicts of one line of cells, in moves (2 per tile that must leave
 *  the line): `tiles` lists the tiles along the line in order, `key[t]` is the
 *  position along the line of tile t's goal cell when that cell lies on this
 *  line, else -1. The count is (line tiles) - (longest increasing subsequence
 *  of their goal positions), which is admissible and at least the classic
 *  pairwise count's lower bound. len <= NP_MAX_SIDE. Cannot fail. */
int np_lc_line(const uint8_t *tiles, int len, const int8_t *key);

/*! The same count for a line given directly as goal positions: keys[i] is the
 *  goal position along the line of the tile in the line's i-th cell, or -1 for
 *  the blank and tiles whose goal is off the line. len <= NP_MAX_SIDE. Cannot fail. */
int np_lc_keys(const int8_t *keys, int len);

/*! The goal keys of every line of `g` for np_lc_line(): row_key[r][t] is the
 *  column of tile t's goal cell when that cell is in row r, else -1;
 *  col_key[k][t] the row of its goal cell when it is in column k, else -1;
 *  -1 for the blank. Only entries of tiles t < g->cells in rows r < g->rows and
 *  columns k < g->cols are written (the caller's arrays); the others are left
 *  as they are. Cannot fail. */
void np_lc_goal_keys(const np_geom *g, int8_t row_key[NP_MAX_SIDE][NP_MAX_CELLS],
                     int8_t col_key[NP_MAX_SIDE][NP_MAX_CELLS]);

/*! Manhattan distance plus 2 x (row conflicts + column conflicts). Admissible.
 *  Cannot fail. */
int np_h_linear_conflict(const np_board *b, const np_geom *g);

#ifdef __cplusplus
}
#endif

#endif
