/* pdb_file.h - the pattern database file format: write, verify, compress, unpack, memory-map.
 *
 * A `.pdb` file is a 256-byte little-endian header, zeros up to the payload
 * offset (4096), then the payload. Header layout (offsets in bytes):
 *
 *      0  magic            8 bytes "NPUZPDB\0"
 *      8  format version   u32 (NP_PDB_FORMAT_VERSION)
 *     12  header size      u32 (256)
 *     16  rows, cols       u8, u8
 *     18  goal             u8 (np_goal)
 *     19  encoding         u8 (np_pdb_encoding)
 *     20  ntiles           u8, then 3 zero bytes
 *     24  tiles            64 bytes, tiles[0..ntiles-1] in pattern order, rest zero
 *     88  entries          u64: placements, rows*cols! / (rows*cols - ntiles)!
 *     96  payload offset   u64 (a multiple of 4096)
 *    104  payload length   u64
 *    112  payload XXH3-64  u64 (XXH3_64bits of the payload bytes)
 *    120  max value        u8, then 7 zero bytes
 *    128  generator        32 bytes: "npuzzle X.Y.Z", NUL-padded (printable ASCII, then NULs only)
 *    160  goal region      u8: 0 = the goal has the blank in its home cell's
 *                          region (the table of the solver's lookups); c + 1 =
 *                          in cell c's region, c the least cell of a region
 *                          of the free cells other than the blank's home's
 *                          (a table for the dual lookups, np_h_pdb_dual)
 *    161  reserved         87 zero bytes
 *    248  header XXH3-64   u64 over bytes 0..247
 *
 * Entry i is the PDB value of the placement whose np_rank() (rank.h) over the
 * labels (np_geom.label, board.h: rows as a snake) of the pattern tiles' cells,
 * in the order of `tiles`, is i: one mixed-radix digit per tile, the last
 * tile's the most significant. Older versions are not read: version 3 had an
 * index made of the order of the tiles (major) and their cell set, version 2
 * ranked the cells themselves (row major), version 1 was cell-set-major.
 * Encodings:
 *   NP_PDB_ENC_8BIT  one byte per entry, the value itself;
 *   NP_PDB_ENC_4BIT  one nibble per entry, (value - md) / 2, where md is the
 *                    Manhattan distance of the pattern's tiles in that
 *                    placement (PDB values and md have equal parity); entry i
 *                    is in byte i/2, the low nibble for even i.
 *   NP_PDB_ENC_ZA    zero-aware: one byte per entry, its low nibble
 *                    (value - md) / 2 as in NP_PDB_ENC_4BIT, its high nibble
 *                    the entry's region gains: bit r set when, with the blank
 *                    in region r of the free cells (their connected regions
 *                    in the order of their least cell label, r < 4), the
 *                    pattern needs at least 2 moves more than the value, which
 *                    is the least over the blank's regions
 *                    (np_pdb_gen_opts.region_gain). File names end in "-z".
 *
 * Files are written under a temporary name in the target directory (payload
 * first, header last), fsync'ed and renamed, so a file at the final name is
 * always complete; a `.pdb.zst` is the whole `.pdb` compressed by zstd with the
 * frame checksum on.
 *
 * Thread-safety: functions on distinct objects are thread-safe; an open np_pdb
 * is read-only and may be shared by any number of threads.
 */
#ifndef NPUZZLE_PDB_FILE_H
#define NPUZZLE_PDB_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "npuzzle/board.h"

#ifdef __cplusplus
extern "C" {
#endif

#define NP_PDB_MAGIC "NPUZPDB" /*!< 7 characters + NUL = the 8 magic bytes */
#define NP_PDB_FORMAT_VERSION 4u
#define NP_PDB_HEADER_SIZE 256u
#define NP_PDB_ALIGN 4096u /*!< payload offset alignment */

typedef enum np_pdb_enc {
    NP_PDB_ENC_AUTO = 0, /*!< for writing: 4-bit when every entry fits, else 8-bit */
    NP_PDB_ENC_8BIT = 1,
    NP_PDB_ENC_4BIT = 2,
    NP_PDB_ENC_ZA = 3 /*!< 4-bit value and 4 bits of region gains, a byte an entry */
} np_pdb_enc;

/*! @return "8bit", "4bit", "4bit+za" or "auto" (static; "unknown" for any other value).
 *  Cannot fail. */
const char *np_pdb_encoding_name(int encoding);

/*! The decoded header of a .pdb file: a transparent value type. */
typedef struct np_pdb_header {
    uint32_t version;
    int rows, cols;
    np_goal goal;
    int encoding; /*!< NP_PDB_ENC_8BIT, NP_PDB_ENC_4BIT or NP_PDB_ENC_ZA */
    int ntiles;
    uint8_t tiles[NP_MAX_CELLS];
    uint64_t entries;
    uint64_t payload_offset, payload_length;
    uint64_t payload_xxh3;
    int max_value;
    char generator[33];
    int goal_region; /*!< 0: the standard goal; c + 1: the blank in cell c's region */
} np_pdb_header;

/*! Bytes of payload for `entries` entries in an encoding (any encoding but
 *  NP_PDB_ENC_4BIT counts one byte an entry). Cannot fail. */
uint64_t np_pdb_payload_bytes(int encoding, uint64_t entries);

/*! Canonical file name of a PDB: "RxC-GG-T1.T2....pdb", GG = "bf" (blank-first
 *  goal) or "bl" (blank-last), tiles in pattern order joined by dots, e.g.
 *  "4x4-bf-1.2.3.4.5.6.7.pdb". No directory part. Written into the caller's
 *  buf, NUL-terminated and truncated to buflen (buf may be NULL to measure).
 *  Cannot fail. @return the length it needed, NUL excluded (like snprintf). */
int np_pdb_filename(char *buf, size_t buflen, const np_geom *g, const uint8_t *tiles, int ntiles);

/*! np_pdb_filename() for a table whose goal has the blank in another region
 *  (goal_region = c + 1 as in the header; 0 gives np_pdb_filename's name):
 *  "RxC-GG-T1.T2...-rC.pdb", e.g. "5x5-bf-1.2.5.6.7.12-r3.pdb". Cannot fail.
 *  @return the length it needed, NUL excluded. */
int np_pdb_filename_region(char *buf, size_t buflen, const np_geom *g, const uint8_t *tiles,
                           int ntiles, int goal_region);

/*! np_pdb_filename() of the zero-aware table (NP_PDB_ENC_ZA) of a pattern:
 *  "RxC-GG-T1.T2...-z.pdb", e.g. "4x4-bf-1.2.3.4.5.6.7-z.pdb". Cannot fail.
 *  @return the length it needed, NUL excluded. */
int np_pdb_filename_za(char *buf, size_t buflen, const np_geom *g, const uint8_t *tiles,
                       int ntiles);

/*! np_pdb_filename_region() of a zero-aware table (the dual lookups' tables
 *  built with gen --dual --zero-aware): "RxC-GG-T1.T2...-rC-z.pdb", e.g.
 *  "5x5-bf-1.2.5.6.7.12-r3-z.pdb"; goal_region 0 gives np_pdb_filename_za's
 *  name. Cannot fail. @return the length it needed, NUL excluded. */
int np_pdb_filename_region_za(char *buf, size_t buflen, const np_geom *g, const uint8_t *tiles,
                              int ntiles, int goal_region);

/* ---- writing ----------------------------------------------------------- */

/*! Called while writing with bytes done and total, after each chunk (about
 *  every 4 MiB). Called from the writing thread only. */
typedef void (*np_pdb_write_progress_fn)(void *ctx, uint64_t done, uint64_t total);

typedef struct np_pdb_write_opts {
    int encoding; /*!< NP_PDB_ENC_AUTO (0), NP_PDB_ENC_8BIT or NP_PDB_ENC_4BIT */
    int threads;  /*!< OpenMP threads for encoding (0 = the OpenMP default) */
    np_pdb_write_progress_fn progress; /*!< may be NULL */
    void *progress_ctx;
    const volatile int
        *cancel;     /*!< if not NULL, *cancel != 0 stops the write (NP_EINTR, temp removed) */
    int goal_region; /*!< recorded in the header: 0, or c + 1 (np_pdb_gen_opts.goal_region) */
    /*! NULL, or the table's region gains (np_pdb_gen_opts.region_gain), one
     *  byte per entry, only the low 4 bits used: then the encoding is
     *  NP_PDB_ENC_ZA (AUTO or ZA asked for; every value must fit 4 bits) */
    const uint8_t *region_gain;
} np_pdb_write_opts;

/*! What np_pdb_write() did. */
typedef struct np_pdb_write_info {
    int encoding;        /*!< the encoding chosen */
    uint64_t file_bytes; /*!< size of the file written */
    int max_value;
} np_pdb_write_info;

/*! Write a .pdb file at `path` from an 8-bit value table.
 *  @param values   values[i] = PDB value of the placement with rank i, for
 *                  i < entries = np_ranker count of (g->cells, ntiles). Only
 *                  read, never kept or freed: it stays the caller's.
 *  @param tiles    the pattern's tiles in rank order (1..cells-1, distinct).
 *  @param opts     NULL for defaults (automatic encoding).
 *  @param info     filled on success only; may be NULL.
 *  @return NP_OK; NP_EINVAL for a NULL path, g, tiles or values, a bad
 *          pattern, an entry count that is not the pattern's, an unknown
 *          encoding, a labelled geometry, a path too long for a temporary
 *          name, NP_PDB_ENC_4BIT or NP_PDB_ENC_ZA asked for a table that does
 *          not fit it (err says which entry), NP_PDB_ENC_ZA without region
 *          gains or region gains with another encoding; NP_EIO when the temporary file cannot be
 *          created, written, synced or renamed (errno kept); NP_ENOMEM;
 *          NP_EINTR when opts->cancel stopped it. A message naming the file
 *          is left in err. An existing file at `path` is replaced atomically;
 *          on any failure the temporary file is removed and `path` is left as
 *          it was. */
int np_pdb_write(const char *path, const np_geom *g, const uint8_t *tiles, int ntiles,
                 const uint8_t *values, uint64_t entries, const np_pdb_write_opts *opts,
                 np_pdb_write_info *info, char *err, size_t errlen);

/*! Compress the file `src` into `dst` (normally src + ".zst") with zstd at
 *  `level` (1..22; 0 = zstd's default), frame checksum on, pledged source
 *  size, and `threads` compression workers when the zstd library has them
 *  (0 or 1: none). Written through a temporary name and renamed: an existing
 *  `dst` is replaced atomically, and on failure the temporary file is removed
 *  and `dst` left as it was. `src` is not checked to be a .pdb.
 *  @param out_bytes receives the compressed size on success only; may be NULL.
 *  @return NP_OK, NP_ENOTFOUND (no `src`), NP_EINVAL (a path too long for a
 *          temporary name), NP_EIO (open, read, write, sync or rename failed,
 *          zstd refused, or `src` changed size meanwhile) or NP_ENOMEM;
 *          message naming the file in err. */
int np_pdb_compress(const char *src, const char *dst, int level, int threads, uint64_t *out_bytes,
                    char *err, size_t errlen);

/*! np_pdb_compress that stops when `cancel` (if not NULL) turns nonzero: read
 *  between blocks of about 128 KiB in and out, so that a signal's flag stops a
 *  compression of minutes within a moment (with worker threads, once zstd's
 *  call in progress returns, which can wait for a job to end: seconds at high
 *  levels). @return as np_pdb_compress, or NP_EINTR when cancelled (no
 *  temporary file left, `dst` as it was). */
int np_pdb_compress_cancel(const char *src, const char *dst, int level, int threads,
                           const volatile int *cancel, uint64_t *out_bytes, char *err,
                           size_t errlen);

/*! Decompress the zstd file `src` into `dst` (temporary name, then rename),
 *  verifying the frame checksum. On any failure the temporary file is removed
 *  and `dst` is left as it was: a damaged or truncated frame never reaches it.
 *  @return NP_OK, NP_ENOTFOUND (no `src`), NP_EINVAL (a path too long for a
 *          temporary name), NP_EIO, NP_EFORMAT (not zstd data), NP_ECHECKSUM
 *          (damaged frame), NP_ETRUNCATED (empty file or cut frame) or
 *          NP_ENOMEM, message naming the file in err. */
int np_pdb_decompress(const char *src, const char *dst, char *err, size_t errlen);

/*! Check that the zstd file `zst` unpacks, frame checksum and table header
 *  verified, to exactly the bytes of the file `pdb`, writing nothing.
 *  @return NP_OK; NP_EMISMATCH (other bytes, or another length), NP_ENOTFOUND,
 *          NP_EIO, NP_EFORMAT (not zstd data, or no table header),
 *          NP_ECHECKSUM, NP_ETRUNCATED or NP_ENOMEM, message naming the file
 *          in err. */
int np_pdb_zst_compare(const char *zst, const char *pdb, char *err, size_t errlen);

/* ---- reading ----------------------------------------------------------- */

/*! What a reader requires of a file. rows, cols and ntiles accept anything
 *  when 0; goal and goal_region when -1 (a zero-filled struct asks for the
 *  blank-first goal and the standard goal region). */
typedef struct np_pdb_expect {
    int rows, cols; /*!< 0 = any */
    int goal;       /*!< np_goal, or -1 = any */
    int ntiles;     /*!< 0 = any; else tiles[0..ntiles-1] must match in order */
    const uint8_t *tiles;
    int goal_region; /*!< 0 = the standard goal only; c + 1 = the blank in cell c's region;
                      *   -1 = any */
} np_pdb_expect;

/*! An open, memory-mapped PDB file (opaque). */
typedef struct np_pdb np_pdb;

enum {
    NP_PDB_OPEN_NOVERIFY = 1, /*!< skip the payload checksum (np_pdb_verify() later) */
    /*! skip the payload checksum when the record ".npuzzle-verified" in the
     *  file's directory names this file with the identity it has now (device,
     *  inode, size, modification and change times: a write, rename or link
     *  onto it changes one), this boot and its header's checksum, that is
     *  when the file was verified before and nothing has written to it since;
     *  otherwise verify, and on success add the file to the record (best
     *  effort: a directory that cannot be written keeps none). A file changed
     *  in the last 900 seconds (NPUZZLE_PDB_SETTLE, whole seconds) is neither
     *  recorded nor trusted: file times are coarse, and stores through a
     *  writable mapping leave them as they are until the page is written
     *  back. What it cannot see is damage that bypasses the file system, such
     *  as a failing disk. */
    NP_PDB_OPEN_STAMP = 2
};

/*! Open and memory-map a .pdb read-only (MAP_SHARED, MADV_RANDOM), check its
 *  header, sizes and `expect`, and the payload checksum. When `path` does not
 *  exist but path + ".zst" does, that is unpacked once to `path` (through a
 *  temporary name and a rename, so processes racing to do it are safe) and
 *  mapped; on success the unpacked file stays at `path`. Any bytes at all are refused
 *  cleanly, never a crash.
 *  @param out    receives the handle, which the caller owns: free it with
 *                np_pdb_close(). Set to NULL first, so NULL on failure.
 *  @param path   borrowed for the call: the handle keeps its own copy.
 *  @param expect NULL = accept any board and pattern; borrowed for the call
 *                (with its tiles).
 *  @param flags  0, NP_PDB_OPEN_NOVERIFY or NP_PDB_OPEN_STAMP.
 *  @return NP_OK; NP_ENOTFOUND (neither file exists); NP_EFORMAT (bad magic,
 *          malformed header, not a regular file, or not zstd data in the
 *          .zst); NP_EVERSION (a format version this npuzzle does not read:
 *          newer, or older and to be rebuilt with npuzzle gen); NP_ETRUNCATED;
 *          NP_ECHECKSUM (payload or header, or damaged .zst frame);
 *          NP_EMISMATCH (valid but another board, goal or pattern: err says
 *          which); NP_EIO; NP_ENOMEM; NP_EINVAL (`out` or `path` NULL, or a
 *          path too long). err names the file, except for a NULL argument. */
int np_pdb_open_ex(np_pdb **out, const char *path, const np_pdb_expect *expect, unsigned flags,
                   char *err, size_t errlen);

/*! np_pdb_open_ex() with flags 0 (the checksum is always verified): the same
 *  ownership and error codes. */
int np_pdb_open(np_pdb **out, const char *path, const np_pdb_expect *expect, char *err,
                size_t errlen);

/*! Read and check only the header of a .pdb (no .zst fallback, no payload
 *  checksum; the file's length is checked against it). Nothing is mapped or
 *  kept open. `out` is the caller's; once the file was read it is written
 *  even on failure, then only partly (not usable).
 *  @return NP_OK; NP_ENOTFOUND; NP_EIO; NP_EFORMAT; NP_EVERSION;
 *          NP_ETRUNCATED; NP_ECHECKSUM (the header's own checksum), as for
 *          np_pdb_open_ex(), message naming the file in err. No NP_EMISMATCH
 *          (nothing is expected), and other file types are not refused. */
int np_pdb_read_header(np_pdb_header *out, const char *path, char *err, size_t errlen);

/*! Verify the payload checksum of an open PDB (`pdb` not NULL; reads every
 *  page of the mapping).
 *  @return NP_OK or NP_ECHECKSUM (message naming the file). */
int np_pdb_verify(const np_pdb *pdb, char *err, size_t errlen);

/*! Check that an open PDB still holds the bytes it was opened with: when the
 *  mapped file's identity (device, inode, size, modification and change
 *  times) is what it was on open, nothing wrote to it and no byte is read
 *  (unless the file had changed within the settling time before the open, see
 *  NP_PDB_OPEN_STAMP, or was opened with NP_PDB_OPEN_NOVERIFY and never
 *  hashed); otherwise as np_pdb_verify(). For a long run that must not trust answers
 *  found with a table changed under it, at the cost of one fstat.
 *  @return NP_OK or NP_ECHECKSUM (message naming the file). */
int np_pdb_recheck(const np_pdb *pdb, char *err, size_t errlen);

/*! Unmap and free the handle and its copy of the path. Every pointer obtained
 *  from it (accessors, views) is invalid afterwards. NULL is allowed. Cannot
 *  fail. */
void np_pdb_close(np_pdb *pdb);

/*! Accessors (`pdb` not NULL; they cannot fail). The pointers returned point
 *  into the handle (header, tiles, path) or its mapping (payload): valid until
 *  np_pdb_close(), read-only, never to be freed. np_pdb_path() is the path the
 *  handle was opened at (the .pdb, also when it was unpacked from a .zst). */
const np_pdb_header *np_pdb_get_header(const np_pdb *pdb);
int np_pdb_encoding(const np_pdb *pdb);
uint64_t np_pdb_entries(const np_pdb *pdb);
int np_pdb_ntiles(const np_pdb *pdb);
const uint8_t *np_pdb_tiles(const np_pdb *pdb);
const uint8_t *np_pdb_payload(const np_pdb *pdb);
const char *np_pdb_path(const np_pdb *pdb);

/*! Value histogram: hist[v] += number of placements whose value is v
 *  (hist, the caller's, has 256 slots and is zeroed first, even on failure;
 *  4-bit values above 255 count in hist[255]). Needs the geometry for the
 *  4-bit encoding's Manhattan term; `g` must be row-major (board.h) and match
 *  the file's board and goal.
 *  @param threads OpenMP threads (0 = default).
 *  @return NP_OK, NP_EMISMATCH (g is another board or goal) or NP_EINVAL (a
 *          labelled geometry). Allocates nothing. */
int np_pdb_histogram(const np_pdb *pdb, const np_geom *g, uint64_t hist[256], int threads);

/* ---- lookups ----------------------------------------------------------- */

/*! What a lookup needs, copied out of an np_pdb so the hot path reads no
 *  opaque struct: a transparent value type. */
typedef struct np_pdb_view {
    const uint8_t *payload;
    uint64_t entries;
    int encoding;
} np_pdb_view;

/*! A view of an open PDB (`pdb` not NULL), returned by value: its payload
 *  points into the handle's mapping and is valid until np_pdb_close().
 *  Cannot fail. */
np_pdb_view np_pdb_get_view(const np_pdb *pdb);

/*! Value of entry i in an 8-bit table (i < entries, not checked). Cannot fail. */
static inline int np_pdb_value8(const uint8_t *payload, uint64_t i)
{
    return payload[i];
}

/*! Value of entry i in a 4-bit table, given the pattern's Manhattan distance
 *  `md` in that placement: md + 2 * nibble, the low nibble holding even i
 *  (i < entries, not checked). Cannot fail. */
static inline int np_pdb_value4(const uint8_t *payload, uint64_t i, int md)
{
    return md + 2 * ((payload[i >> 1] >> ((unsigned)(i & 1) << 2)) & 15);
}

/*! Value of entry i in a zero-aware table, given the Manhattan distance
 *  `md`: md + 2 * the low nibble of byte i (the least over the blank's
 *  regions). Cannot fail. */
static inline int np_pdb_value_za(const uint8_t *payload, uint64_t i, int md)
{
    return md + 2 * (payload[i] & 15);
}

/*! Region gains of entry i in a zero-aware table: bit r set when the blank in
 *  region r needs at least 2 more moves (NP_PDB_ENC_ZA). Cannot fail. */
static inline unsigned np_pdb_gain_za(const uint8_t *payload, uint64_t i)
{
    return payload[i] >> 4;
}

/*! Value of entry i in any encoding (md is ignored by 8-bit tables; a
 *  zero-aware table gives the least over the blank's regions). Cannot fail. */
static inline int np_pdb_view_value(const np_pdb_view *v, uint64_t i, int md)
{
    return v->encoding == NP_PDB_ENC_4BIT ? np_pdb_value4(v->payload, i, md)
        : v->encoding == NP_PDB_ENC_ZA    ? np_pdb_value_za(v->payload, i, md)
                                          : np_pdb_value8(v->payload, i);
}

#ifdef __cplusplus
}
#endif

#endif
