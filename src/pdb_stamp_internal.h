/* pdb_stamp_internal.h - the record of PDB files whose payload checksum was verified, kept in their
 * directory, so that opening an unchanged file again need not read all of it (not public API).
 *
 * A file is named in the record with the identity it had when its payload
 * hashed to its header's checksum: device, inode, size, modification and
 * change times, and the boot it was recorded in. A write to a file, and a
 * rename or link onto it, changes one of those (the change time cannot be set
 * from user space), with two exceptions that the settling time covers:
 *  - file times are coarse (a clock tick; a second on some file systems): a
 *    write in the same tick as the change before it leaves them as they were;
 *  - a write through a shared writable mapping sets them only on the first
 *    store to a clean page: later stores change nothing until the page is
 *    written back (vm.dirty_expire_centisecs, 30 s by default).
 * So a file changed in the last settle seconds (NPUZZLE_PDB_SETTLE, default
 * 900) is never recorded, nor trusted unread. A record from another boot is
 * not trusted either (a crash can keep data and lose its times). What the
 * record cannot see is damage that bypasses the file system (a failing
 * disk): NP_PDB_OPEN_STAMP is a choice of the caller, and
 * `npuzzle solve --verify-tables` hashes every table regardless. */
#ifndef NPUZZLE_PDB_STAMP_INTERNAL_H
#define NPUZZLE_PDB_STAMP_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/stat.h>

/* The record's name, in each table directory. */
#define NP__PDB_STAMP_NAME ".npuzzle-verified"

/* The largest record read (a larger one is ignored); a rewrite keeps the
 * record under it by dropping old lines of other files, the last first. */
#define NP__PDB_STAMP_MAX_BYTES (1 << 20)

/* How long after its last change a file's times may still change unseen,
 * unless NPUZZLE_PDB_SETTLE (whole seconds) says otherwise. */
#define NP__SETTLE_S 900

/* A file's identity, as fstat gives it, and whether its last change was
 * within the settling time when it was taken (then it vouches for nothing). */
typedef struct np__file_id {
    uint64_t dev, ino, size;
    int64_t mtime_s, mtime_ns, ctime_s, ctime_ns;
    bool recent;
} np__file_id;

void np__file_id_of(np__file_id *id, const struct stat *st);
bool np__file_id_equal(const np__file_id *a, const np__file_id *b);

/* Whether the record in `path`'s directory names `path` with identity `id`
 * and payload checksum `xxh3`. Any trouble reading the record is a no. */
bool np__pdb_stamp_match(const char *path, const np__file_id *id, uint64_t xxh3);

/* Record that `path`, with identity `id` (not recent), hashed to `xxh3` (replacing what
 * the record said of it): through a temporary file and a rename, so a reader
 * sees the old record or the new. Best effort: a directory that cannot be
 * written just keeps no record (the next open hashes again). */
void np__pdb_stamp_add(const char *path, const np__file_id *id, uint64_t xxh3);

/* A file np__pdb_stamp_add_many records. */
typedef struct np__stamp {
    const char *path;
    const np__file_id *id;
    uint64_t xxh3;
} np__stamp;

/* np__pdb_stamp_add of n files, the record of each directory rewritten once
 * (a set of tables opened together: one rewrite instead of one a table). */
void np__pdb_stamp_add_many(const np__stamp *files, int n);

/* np_pdb_open_ex's flag (internal) with NP_PDB_OPEN_STAMP: a file verified
 * on open is not recorded then, but by np__pdb_stamp_due. */
#define NP__PDB_OPEN_STAMP_LATER 0x100u

struct np_pdb;
/* Record, with one rewrite per directory, the files of pdbs[0..n) (NULL
 * entries skipped) opened with NP__PDB_OPEN_STAMP_LATER and verified then. */
void np__pdb_stamp_due(struct np_pdb *const *pdbs, int n);

#endif
