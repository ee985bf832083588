/* heuristic.h - admissible estimates: Manhattan distance, linear conflict, additive PDB sums. */
#ifndef NPUZZLE_HEURISTIC_H
#define NPUZZLE_HEURISTIC_H

#include <stdbool.h>

#include "npuzzle/board.h"
#include "npuzzle/pattern.h"

typedef enum np_hkind {
    NP_H_MD = 0,  /*!< Manhattan distance */
    NP_H_LC = 1,  /*!< Manhattan distance + linear conflicts in rows and columns */
    NP_H_PDB = 2  /*!< sum of additive pattern databases, maxed with the reflected sum */
} np_hkind;

/*! Parse "md", "lc" or "pdb". @return NP_OK or NP_EINVAL. */
int np_hkind_parse(np_hkind *out, const char *name);
/*! @return "md", "lc" or "pdb". */
const char *np_hkind_name(np_hkind k);

/*! A set of mapped additive PDBs for one board and partition (opaque). Read-only
 *  once opened: many threads may search with one set. */
typedef struct np_pdbset np_pdbset;

/*! Open the PDB files of partition `part` (which must cover every tile of the
 *  board) from directory `dir`: each file is named by np_pdb_filename(), mapped
 *  read-only and shared, its header checked against the board, goal and
 *  pattern, and its checksum verified; a missing .pdb is unpacked from its
 *  .pdb.zst. The set owns the mappings.
 *  @param flags 0, or NP_PDBSET_PRIVATE_COPY: copy each payload into private
 *         memory on huge pages (faster lookups; the pages are no longer shared
 *         with other processes; needs the tables' size again in memory).
 *  @param err  receives a message naming the file and the problem.
 *  @return NP_OK, NP_EINVAL (partition not covering the board), NP_ENOTFOUND,
 *          NP_ENOMEM, or the np_pdb_open() error of the first bad file. */
int np_pdbset_open(np_pdbset **out, const np_geom *g, const np_partition *part, const char *dir,
                   unsigned flags, char *err, size_t errlen);

enum { NP_PDBSET_PRIVATE_COPY = 1 };

/*! Release the set and its mappings (NULL is allowed). */
void np_pdbset_free(np_pdbset *set);

/*! Check every table's payload checksum again (one pass over the files):
 *  catches a file overwritten while it was mapped.
 *  @return NP_OK or NP_ECHECKSUM, with a message naming the file. */
int np_pdbset_verify(const np_pdbset *set, char *err, size_t errlen);

/*! @return the partition the set was opened for. */
const np_partition *np_pdbset_partition(const np_pdbset *set);

/*! Additive PDB estimate of `b` computed from scratch: the sum of the
 *  patterns' lookups, maxed (unless `no_reflect`, or the board is not square)
 *  with the same sum looked up on the transposed, relabelled board. */
int np_h_pdb(const np_pdbset *set, const np_board *b, bool no_reflect);

/*! The sum of the patterns' lookups of `b` alone (no reflection). */
int np_h_pdb_plain(const np_pdbset *set, const np_board *b);

/*! Manhattan distance of `b` (tiles only, blank excluded). */
int np_h_manhattan(const np_board *b, const np_geom *g);

/*! Linear conflicts of one line of cells, in moves (2 per tile that must leave
 *  the line): `tiles` lists the tiles along the line in order, `key[t]` is the
 *  position along the line of tile t's goal cell when that cell lies on this
 *  line, else -1. The count is (line tiles) - (longest increasing subsequence
 *  of their goal positions), which is admissible and at least the classic
 *  pairwise count's lower bound. */
int np_lc_line(const uint8_t *tiles, int len, const int8_t *key);

/*! The same count for a line given directly as goal positions: keys[i] is the
 *  goal position along the line of the tile in the line's i-th cell, or -1 for
 *  the blank and tiles whose goal is off the line. */
int np_lc_keys(const int8_t *keys, int len);

/*! Manhattan distance plus 2 x (row conflicts + column conflicts). Admissible. */
int np_h_linear_conflict(const np_board *b, const np_geom *g);

#endif
