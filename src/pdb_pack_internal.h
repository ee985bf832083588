/* pdb_pack_internal.h - the 4-bit encoding's packer, for the writer (not public API). */
#ifndef NPUZZLE_PDB_PACK_INTERNAL_H
#define NPUZZLE_PDB_PACK_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "npuzzle/board.h"
#include "npuzzle/rank.h"

/* One pass over all entries of values[] (indexed by np_rank over the labels
 * of the labelled geometry g): *max_value gets the largest value, and with
 * check4, *first_bad the first index whose value does not fit the 4-bit
 * encoding (UINT64_MAX when all do). With `packed` (payload-sized, check4 on)
 * the nibbles are stored on the way, so the Manhattan distances are computed
 * once. `threads`: OpenMP threads, 0 = the default. */
void np__pdb_scan_values(const np_ranker *r, const np_geom *g, const uint8_t *tiles,
                         const uint8_t *values, uint64_t entries, bool check4, uint8_t *packed,
                         int threads, int *max_value, uint64_t *first_bad);

/* Pack entries [lo, lo + n) (lo even; each fits, as np__pdb_scan_values found)
 * as nibbles into out[0 .. (n+1)/2). */
void np__pdb_pack4(const np_ranker *r, const np_geom *g, const uint8_t *tiles,
                   const uint8_t *values, uint64_t lo, uint64_t n, uint8_t *out, int threads);

/* The zero-aware encoding of entries [lo, lo + n) (each value fits 4 bits, as
 * np__pdb_scan_values found): byte i = the nibble | gain[lo + i] << 4, into
 * out[0 .. n). */
void np__pdb_pack_za(const np_ranker *r, const np_geom *g, const uint8_t *tiles,
                     const uint8_t *values, const uint8_t *gain, uint64_t lo, uint64_t n,
                     uint8_t *out, int threads);

#endif
