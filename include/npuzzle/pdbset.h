/* pdbset.h - the PDB set of a partition: its tables opened, checked and mapped together.
 *
 * Naming: a handle that maps files is opened and closed (np_pdb_open /
 * np_pdb_close, np_pdbset_open / np_pdbset_close).
 */
#ifndef NPUZZLE_PDBSET_H
#define NPUZZLE_PDBSET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "npuzzle/board.h"
#include "npuzzle/pattern.h"

#ifdef __cplusplus
extern "C" {
#endif

/*! A set of mapped additive PDBs for one board and partition (opaque). Read-only
 *  once opened: many threads may search with one set. */
typedef struct np_pdbset np_pdbset;

/*! Open the PDB files of partition `part` (which must cover every tile of the
 *  board) from directory `dir`: each file is named by np_pdb_filename(), mapped
 *  read-only and shared, its header checked against the board, goal and
 *  pattern, and its checksum verified; a missing .pdb is unpacked from its
 *  .pdb.zst (and stays in `dir`). The set owns the mappings and copies `g`
 *  and `part`: they and `dir` are borrowed for the call only.
 *  @param flags 0, or any of NP_PDBSET_DUAL, NP_PDBSET_STAMP,
 *         NP_PDBSET_ZERO_AWARE (below) and
 *         NP_PDBSET_PRIVATE_COPY: copy each payload into private
 *         memory on huge pages. A fallback for a file that the page cache
 *         holds in 4 KiB pages (read by other tools): lookups then run as fast
 *         as from a shared mapping in 2 MiB pages, at the cost of the tables'
 *         size again in memory per process, no longer shared.
 *  @param out  not NULL; receives the set, which the caller owns: close it
 *              with np_pdbset_close(). Set to NULL first, so NULL on failure
 *              (the tables opened so far are closed again).
 *  @param err  receives a message naming the file and the problem.
 *  @return NP_OK; NP_EINVAL (partition not covering the board, a path too
 *          long, a labelled geometry: board.h, `dir` NULL, or a flag not
 *          listed here); NP_ENOMEM (the set, or a
 *          private copy); NP_ETOOBIG (a private copy larger than MemAvailable,
 *          refused before allocating); NP_EMISMATCH (a table's entry count is not the
 *          pattern's); or the np_pdb_open() error of the first bad file
 *          (NP_ENOTFOUND, NP_EFORMAT, NP_EVERSION, NP_ETRUNCATED,
 *          NP_ECHECKSUM, NP_EMISMATCH, NP_EIO, NP_ENOMEM, NP_EINVAL).
 *          Thread-safe. */
int np_pdbset_open(np_pdbset **out, const np_geom *g, const np_partition *part, const char *dir,
                   unsigned flags, char *err, size_t errlen);

/*! Look, without opening or reading anything, for the tables
 *  np_pdbset_open() needs for `part` in `dir` with `flags`: each pattern's
 *  (its zero-aware one with NP_PDBSET_ZERO_AWARE), as its .pdb or only its
 *  .pdb.zst. The dual lookups' tables are not looked for (the open skips a
 *  missing one). For a caller that wants to know before a long run that the
 *  open will find its tables; only the open checks what they hold.
 *  @return NP_OK, each is there; NP_ENOTFOUND, the first missing table's
 *          .pdb path copied to `missing` (when not NULL; truncated to
 *          `missinglen`); NP_EIO, `dir` or a directory above it cannot be
 *          searched (its table's path in `missing`); NP_EINVAL (a path too
 *          long, a partition that does not cover the board, a labelled
 *          geometry, unknown flags). The message, naming the file, goes to
 *          err. Thread-safe. */
int np_pdbset_find_missing(const np_geom *g, const np_partition *part, const char *dir,
                           unsigned flags, char *missing, size_t missinglen, char *err,
                           size_t errlen);

enum {
    NP_PDBSET_PRIVATE_COPY = 1,
    /*! Also open, from the same directory, the tables the dual lookups use
     *  (np_h_pdb_dual; np_pdb_dual_tables lists them, np_pdb_filename_region
     *  names them; never copied). One that is missing is
     *  skipped (np_pdbset_dual_missing counts them: the dual lookup then counts
     *  Manhattan distances there); one that is bad fails the open. */
    NP_PDBSET_DUAL = 2,
    /*! Skip the checksum of a table verified before and not written to
     *  since, nor within the settling time (NP_PDB_OPEN_STAMP): start-up then
     *  reads no payload. */
    NP_PDBSET_STAMP = 4,
    /*! Open each pattern's zero-aware table (np_pdb_filename_za, encoding
     *  NP_PDB_ENC_ZA) instead of its plain one: a lookup then counts the
     *  moves for the region its tiles leave the blank in, not the least over
     *  the regions (a plain table at that name is NP_EMISMATCH; a board whose
     *  pattern cell sets would need region tables over 256 MiB, NP_ETOOBIG). */
    NP_PDBSET_ZERO_AWARE = 8
};

/*! @return whether the set looks up zero-aware tables (NP_PDBSET_ZERO_AWARE).
 *  Cannot fail. */
bool np_pdbset_zero_aware(const np_pdbset *set);

/*! @return how many tables NP_PDBSET_DUAL asked for were missing; *first
 *  (when first is not NULL) the path of the first, or NULL. Cannot fail. */
int np_pdbset_dual_missing(const np_pdbset *set, const char **first);

/*! Release the set, its mappings and private copies (NULL is allowed). Every
 *  pointer obtained from it (np_pdbset_partition) is invalid afterwards, and
 *  no search may still use it. Cannot fail. */
void np_pdbset_close(np_pdbset *set);

/*! Check every table's payload checksum again (one pass over the files):
 *  catches a file overwritten while it was mapped. With
 *  NP_PDBSET_PRIVATE_COPY the mapped files are checked, not the copies.
 *  @return NP_OK or NP_ECHECKSUM (the first bad table), with a message naming
 *          the file. */
int np_pdbset_verify(const np_pdbset *set, char *err, size_t errlen);

/*! np_pdb_recheck() on every table: as np_pdbset_verify(), but a table whose
 *  file nothing has written to since the open is not read again.
 *  @return NP_OK or NP_ECHECKSUM (the first bad table), with a message naming
 *          the file. */
int np_pdbset_recheck(const np_pdbset *set, char *err, size_t errlen);

/*! @return a 64-bit digest of the set's tables (each one's tiles and payload
 *  checksum, in partition order; then those of the dual lookups' tables that
 *  NP_PDBSET_DUAL opened, and how many it missed): two sets with the same
 *  digest hold the same tables. For records that must be read back with the same tables
 *  (checkpoints). Uses the checksums stored in the headers (reads no payload).
 *  Cannot fail. */
uint64_t np_pdbset_digest(const np_pdbset *set);

/*! @return table p's payload checksum (XXH3-64, from its header), for p in
 *  0 .. the partition's npatterns - 1: to compare the tables of two processes
 *  file by file. Cannot fail. */
uint64_t np_pdbset_table_checksum(const np_pdbset *set, int p);

/*! @return the partition the set was opened for: the set's own copy, valid
 *  until np_pdbset_close(), not to be freed. Cannot fail. */
const np_partition *np_pdbset_partition(const np_pdbset *set);

#ifdef __cplusplus
}
#endif

#endif
