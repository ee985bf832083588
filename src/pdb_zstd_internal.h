/* pdb_zstd_internal.h - the reader's .zst fallback: finding a table as its .pdb or .pdb.zst, and
 * unpacking a .pdb.zst into an open file (not public API). */
#ifndef NPUZZLE_PDB_ZSTD_INTERNAL_H
#define NPUZZLE_PDB_ZSTD_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>

/* Where the table at `path` is, as np_pdb_open_ex() looks for it: the .pdb
 * itself (*packed false), else only its .pdb.zst (*packed true). Looks only
 * (stat): nothing is opened or read. @return NP_OK; NP_ENOTFOUND, neither is
 * there ("PATH: not found (nor PATH.zst)"); NP_EIO, the .pdb's directory
 * cannot be searched ("PATH: cannot open: REASON"); NP_EINVAL, a path too
 * long. The message goes to err. */
int np__pdb_locate(const char *path, bool *packed, char *err, size_t errlen);

/* Decompress the zstd file `src` into the open file `out` (from offset 0),
 * verifying the frame checksum. `out` stays open; the caller syncs, renames or
 * removes it. @return NP_OK, NP_ENOTFOUND, NP_EIO, NP_EFORMAT (not zstd data),
 * NP_ECHECKSUM (damaged frame), NP_ETRUNCATED or NP_ENOMEM, message naming
 * `src` in err. */
int np__pdb_unpack_fd(const char *src, int out, char *err, size_t errlen);

#endif
