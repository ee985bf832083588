/* pdb_header_internal.h - the .pdb header's codec and checks, shared by the writer and the reader
 * (not public API). */
#ifndef NPUZZLE_PDB_HEADER_INTERNAL_H
#define NPUZZLE_PDB_HEADER_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>

#include "npuzzle/pdb_file.h"

/* Serialise a header into its 256 bytes (layout in pdb_file.h), checksum included. */
void np__pdb_header_encode(uint8_t out[NP_PDB_HEADER_SIZE], const np_pdb_header *h);

/* A file size not known yet (a file being unpacked): its checks are skipped. */
#define NP__PDB_SIZE_UNKNOWN UINT64_MAX

/* Decode and check a header's 256 bytes, as the opening of a file whose size
 * is not known yet (messages name `path`). @return as np_pdb_read_header(). */
int np__pdb_header_decode(np_pdb_header *h, const uint8_t b[NP_PDB_HEADER_SIZE], const char *path,
                          char *err, size_t errlen);

/* NP_OK when the header meets `e` (NULL accepts any), else NP_EMISMATCH with a
 * message naming `path` and what differs. */
int np__pdb_check_expect(const np_pdb_header *h, const np_pdb_expect *e, const char *path,
                         char *err, size_t errlen);

/* Open `file` to read it (messages call it `name`), refusing a FIFO (never
 * waited on) and, with `regular`, anything but a regular file; *st is its
 * fstat. @return the descriptor, or NP_ENOTFOUND, NP_EIO or NP_EFORMAT (a
 * negative code) with the message in err. */
int np__open_read(const char *file, const char *name, bool regular, struct stat *st, char *err,
                  size_t errlen);

/* Open `file` and decode its header (messages call it `name`). On success
 * *fd_out is the open descriptor (or closed when fd_out is NULL) and *size the
 * file's length; with `regular`, anything but a regular file is refused.
 * @return as np_pdb_read_header(). */
int np__pdb_open_header(np_pdb_header *h, int *fd_out, uint64_t *size, const char *file,
                        const char *name, bool regular, char *err, size_t errlen);

#endif
