/* pdb_zstd_internal.h - unpacking a .pdb.zst into an open file, for the reader's .zst fallback
 * (not public API). */
#ifndef NPUZZLE_PDB_ZSTD_INTERNAL_H
#define NPUZZLE_PDB_ZSTD_INTERNAL_H

#include <stddef.h>

/* Decompress the zstd file `src` into the open file `out` (from offset 0),
 * verifying the frame checksum. `out` stays open; the caller syncs, renames or
 * removes it. @return NP_OK, NP_ENOTFOUND, NP_EIO, NP_EFORMAT (not zstd data),
 * NP_ECHECKSUM (damaged frame), NP_ETRUNCATED or NP_ENOMEM, message naming
 * `src` in err. */
int np__pdb_unpack_fd(const char *src, int out, char *err, size_t errlen);

#endif
