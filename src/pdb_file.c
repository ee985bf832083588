/* pdb_file.c - the .pdb file format: writing and mmap (header: pdb_header.c; 4-bit packing: pdb_pack.c; zstd: pdb_zstd.c). */
#include "npuzzle/pdb_file.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <xxhash.h>
#include <zstd.h>
#include <zstd_errors.h>

#include "npuzzle/error.h"
#include "atomic_file_internal.h"
#include "error_internal.h"
#include "pdb_header_internal.h"
#include "pdb_pack_internal.h"
#include "pdb_zstd_internal.h"
#include "npuzzle/rank.h"

#ifndef NP_VERSION
#define NP_VERSION "unknown"
#endif

#define CHUNK_BYTES (4u << 20)      /* payload bytes written per write call */

struct np_pdb {
    char *path;
    uint8_t *map;
    size_t map_len;
    np_pdb_header h;
};


/* ---- writing ----------------------------------------------------------- */

int np_pdb_write(const char *path, const np_geom *g, const uint8_t *tiles, int ntiles,
                 const uint8_t *values, uint64_t entries, const np_pdb_write_opts *opts,
                 np_pdb_write_info *info, char *err, size_t errlen)
{
    np_pdb_write_opts o = {0};
    if (opts)
        o = *opts;
    if (!path || !g || !tiles || !values)
        return np__fail(NP_EINVAL, err, errlen, "np_pdb_write: NULL argument");
    np_ranker r;
    if (ntiles < 1 || ntiles >= g->cells || np_ranker_init(&r, g->cells, ntiles) != NP_OK)
        return np__fail(NP_EINVAL, err, errlen, "%s: bad pattern of %d tiles", path, ntiles);
    uint64_t seen = 0;
    for (int i = 0; i < ntiles; i++) {
        if (tiles[i] < 1 || tiles[i] >= g->cells || (seen >> tiles[i] & 1))
            return np__fail(NP_EINVAL, err, errlen, "%s: bad tile %d in pattern", path, tiles[i]);
        seen |= UINT64_C(1) << tiles[i];
    }
    /* The table is indexed by cell labels (board.h): Manhattan sums for the
     * 4-bit encoding come from the relabelled board. */
    np_geom labelled;
    if (np_geom_labelled(g, &labelled) != NP_OK)
        return np__fail(NP_EINVAL, err, errlen, "%s: the geometry is already labelled (board.h)", path);
    g = &labelled;
    if (entries != r.count)
        return np__fail(NP_EINVAL, err, errlen, "%s: %llu entries given, the pattern has %llu", path,
                    (unsigned long long)entries, (unsigned long long)r.count);
    if (o.encoding != NP_PDB_ENC_AUTO && o.encoding != NP_PDB_ENC_8BIT &&
        o.encoding != NP_PDB_ENC_4BIT)
        return np__fail(NP_EINVAL, err, errlen, "%s: unknown encoding %d", path, o.encoding);

    /* Encode 4-bit in the same pass as the check when memory allows; else
     * np__pdb_pack4() encodes again chunk by chunk while writing. */
    uint8_t *packed = NULL;
    if (o.encoding != NP_PDB_ENC_8BIT)
        packed = malloc(np_pdb_payload_bytes(NP_PDB_ENC_4BIT, entries));
    int maxv;
    uint64_t bad;
    np__pdb_scan_values(&r, g, tiles, values, entries, o.encoding != NP_PDB_ENC_8BIT, packed,
                        o.threads, &maxv, &bad);
    int enc = o.encoding;
    if (enc == NP_PDB_ENC_AUTO)
        enc = bad == UINT64_MAX ? NP_PDB_ENC_4BIT : NP_PDB_ENC_8BIT;
    if (enc != NP_PDB_ENC_4BIT) {
        free(packed);
        packed = NULL;
    }
    if (enc == NP_PDB_ENC_4BIT && bad != UINT64_MAX) {
        free(packed);
        return np__fail(NP_EINVAL, err, errlen,
                    "%s: entry %llu (value %d) does not fit the 4-bit encoding", path,
                    (unsigned long long)bad, values[bad]);
    }

    np_pdb_header h;
    memset(&h, 0, sizeof h);
    h.version = NP_PDB_FORMAT_VERSION;
    h.rows = g->rows;
    h.cols = g->cols;
    h.goal = g->goal;
    h.encoding = enc;
    h.ntiles = ntiles;
    memcpy(h.tiles, tiles, (size_t)ntiles);
    h.entries = entries;
    h.payload_offset = NP_PDB_ALIGN;
    h.payload_length = np_pdb_payload_bytes(enc, entries);
    h.max_value = maxv;
    snprintf(h.generator, sizeof h.generator, "npuzzle %s", NP_VERSION);

    char tmp[PATH_MAX];
    int fd = np__make_temp(path, tmp, sizeof tmp, err, errlen);
    if (fd < 0) {
        free(packed);
        return fd;
    }
    bool chunked = enc == NP_PDB_ENC_4BIT && !packed;
    uint8_t *buf = chunked ? malloc(CHUNK_BYTES) : NULL;
    XXH3_state_t *xs = XXH3_createState();
    if ((chunked && !buf) || !xs) {
        free(buf);
        free(packed);
        XXH3_freeState(xs);
        np__abort_temp(fd, tmp, 0);
        return np__fail(NP_ENOMEM, err, errlen, "%s: out of memory", path);
    }
    XXH3_64bits_reset(xs);

    /* Payload first, header last: a file cut short anywhere has no valid header. */
    int rc = NP_OK;
    for (uint64_t done = 0; done < h.payload_length;) {
        uint64_t len = h.payload_length - done < CHUNK_BYTES ? h.payload_length - done : CHUNK_BYTES;
        const uint8_t *src;
        if (packed) {
            src = packed + done;
        } else if (chunked) {
            uint64_t lo = done * 2, n = len * 2 < entries - lo ? len * 2 : entries - lo;
            np__pdb_pack4(&r, g, tiles, values, lo, n, buf, o.threads);
            src = buf;
        } else {
            src = values + done;
        }
        XXH3_64bits_update(xs, src, (size_t)len);
        if (np__write_all(fd, src, (size_t)len, h.payload_offset + done) != 0) {
            rc = np__fail(NP_EIO, err, errlen, "%s: write failed: %s", path, strerror(errno));
            break;
        }
        done += len;
        if (o.progress)
            o.progress(o.progress_ctx, done, h.payload_length);
        if (o.cancel && *o.cancel) {
            rc = np__fail(NP_EINTR, err, errlen, "%s: interrupted; not written", path);
            break;
        }
    }
    h.payload_xxh3 = XXH3_64bits_digest(xs);
    XXH3_freeState(xs);
    free(buf);
    free(packed);
    if (rc != NP_OK)
        return np__abort_temp(fd, tmp, rc);

    uint8_t hdr[NP_PDB_HEADER_SIZE];
    np__pdb_header_encode(hdr, &h);
    if (np__write_all(fd, hdr, sizeof hdr, 0) != 0) {
        rc = np__fail(NP_EIO, err, errlen, "%s: write failed: %s", path, strerror(errno));
        return np__abort_temp(fd, tmp, rc);
    }
    rc = np__commit_temp(fd, tmp, path, err, errlen);
    if (rc != NP_OK)
        return rc;
    if (info) {
        info->encoding = enc;
        info->file_bytes = h.payload_offset + h.payload_length;
        info->max_value = maxv;
    }
    return NP_OK;
}

/* ---- reading ----------------------------------------------------------- */

/* Map `len` bytes of fd read-only and shared at a 2 MiB-aligned address, so
 * that file offsets and addresses agree modulo 2 MiB (the kernel can then map
 * whole 2 MiB folios), and ask for huge pages. MAP_FAILED on failure. */
static void *map_aligned(int fd, size_t len)
{
    const size_t huge = (size_t)2 << 20;
    /* cppcheck-suppress invalidFunctionArg ; an anonymous mapping takes fd -1 */
    char *res = mmap(NULL, len + huge, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (res == MAP_FAILED)
        return mmap(NULL, len, PROT_READ, MAP_SHARED, fd, 0);
    char *al = (char *)(((uintptr_t)res + huge - 1) & ~(uintptr_t)(huge - 1));
    void *map = mmap(al, len, PROT_READ, MAP_SHARED | MAP_FIXED, fd, 0);
    if (map == MAP_FAILED) {
        munmap(res, len + huge);
        return MAP_FAILED;
    }
    /* Give back the slack before and after the aligned window. */
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    size_t maplen = (len + page - 1) & ~(page - 1);
    if (al > res)
        munmap(res, (size_t)(al - res));
    if (res + len + huge > al + maplen)
        munmap(al + maplen, (size_t)(res + len + huge - (al + maplen)));
#ifdef MADV_HUGEPAGE
    (void)madvise(map, len, MADV_HUGEPAGE);
#endif
    return map;
}

/* Map `file` and check it; messages call it `name`. */
static int map_checked(np_pdb **out, const char *file, const char *name, const np_pdb_expect *expect,
                       unsigned flags, char *err, size_t errlen)
{
    np_pdb_header h;
    int fd = -1;
    uint64_t size = 0;
    int rc = np__pdb_open_header(&h, &fd, &size, file, name, true, err, errlen);
    if (rc != NP_OK)
        return rc;
    rc = np__pdb_check_expect(&h, expect, name, err, errlen);
    if (rc != NP_OK) {
        close(fd);
        return rc;
    }
    size_t len = (size_t)size;
    void *map = map_aligned(fd, len);
    int e = errno;
    close(fd);
    if (map == MAP_FAILED)
        return np__fail(NP_EIO, err, errlen, "%s: mmap failed: %s", name, strerror(e));
    np_pdb *p = calloc(1, sizeof *p);
    char *pathcopy = strdup(name);
    if (!p || !pathcopy) {
        munmap(map, len);
        free(p);
        free(pathcopy);
        return np__fail(NP_ENOMEM, err, errlen, "%s: out of memory", name);
    }
    p->path = pathcopy;
    p->map = map;
    p->map_len = len;
    p->h = h;
    if (!(flags & NP_PDB_OPEN_NOVERIFY)) {
        /* The checksum reads every page once, in order: the faults bring the
         * file in by read-ahead (in 2 MiB folios, thanks to MADV_HUGEPAGE). */
        rc = np_pdb_verify(p, err, errlen);
        if (rc != NP_OK) {
            np_pdb_close(p);
            return rc;
        }
    }
    /* Lookups then touch entries at random: no read-ahead around them. */
    (void)madvise(p->map, p->map_len, MADV_RANDOM);
    *out = p;
    return NP_OK;
}

int np_pdb_open_ex(np_pdb **out, const char *path, const np_pdb_expect *expect, unsigned flags,
                   char *err, size_t errlen)
{
    if (!out || !path)
        return np__fail(NP_EINVAL, err, errlen, "np_pdb_open: NULL argument");
    *out = NULL;
    struct stat st;
    if (stat(path, &st) == 0 || errno != ENOENT)
        return map_checked(out, path, path, expect, flags, err, errlen);

    char zst[PATH_MAX];
    if (snprintf(zst, sizeof zst, "%s.zst", path) >= (int)sizeof zst)
        return np__fail(NP_EINVAL, err, errlen, "%s: path too long", path);
    if (stat(zst, &st) != 0)
        return np__fail(NP_ENOTFOUND, err, errlen, "%s: not found (nor %s)", path, zst);

    /* Unpack next to it under a temporary name, check, then rename: two
     * processes racing here each rename a complete, identical file. */
    char tmp[PATH_MAX];
    int fd = np__make_temp(path, tmp, sizeof tmp, err, errlen);
    if (fd < 0)
        return fd;
    int rc = np__pdb_unpack_fd(zst, fd, err, errlen);
    if (rc == NP_OK && fsync(fd) != 0)
        rc = np__fail(NP_EIO, err, errlen, "%s: fsync failed: %s", path, strerror(errno));
    if (rc == NP_OK)
        np__drop_cached_pages(fd);
    close(fd);
    if (rc == NP_OK)
        rc = map_checked(out, tmp, zst, expect, flags, err, errlen);
    if (rc != NP_OK) {
        unlink(tmp);
        return rc;
    }
    if (rename(tmp, path) != 0) {
        rc = np__fail(NP_EIO, err, errlen, "%s: cannot rename the unpacked file into place: %s", path,
                  strerror(errno));
        unlink(tmp);
        np_pdb_close(*out);
        *out = NULL;
        return rc;
    }
    free((*out)->path);
    (*out)->path = strdup(path);
    if (!(*out)->path) {
        np_pdb_close(*out);
        *out = NULL;
        return np__fail(NP_ENOMEM, err, errlen, "%s: out of memory", path);
    }
    return NP_OK;
}

int np_pdb_open(np_pdb **out, const char *path, const np_pdb_expect *expect, char *err,
                size_t errlen)
{
    return np_pdb_open_ex(out, path, expect, 0, err, errlen);
}

int np_pdb_verify(const np_pdb *pdb, char *err, size_t errlen)
{
    uint64_t sum = XXH3_64bits(pdb->map + pdb->h.payload_offset, (size_t)pdb->h.payload_length);
    if (sum != pdb->h.payload_xxh3)
        return np__fail(NP_ECHECKSUM, err, errlen,
                    "%s: payload checksum mismatch (file corrupt; regenerate it with npuzzle gen --force)",
                    pdb->path);
    return NP_OK;
}

void np_pdb_close(np_pdb *pdb)
{
    if (!pdb)
        return;
    if (pdb->map)
        munmap(pdb->map, pdb->map_len);
    free(pdb->path);
    free(pdb);
}

const np_pdb_header *np_pdb_get_header(const np_pdb *pdb) { return &pdb->h; }
int np_pdb_encoding(const np_pdb *pdb) { return pdb->h.encoding; }
uint64_t np_pdb_entries(const np_pdb *pdb) { return pdb->h.entries; }
int np_pdb_ntiles(const np_pdb *pdb) { return pdb->h.ntiles; }
const uint8_t *np_pdb_tiles(const np_pdb *pdb) { return pdb->h.tiles; }
const uint8_t *np_pdb_payload(const np_pdb *pdb) { return pdb->map + pdb->h.payload_offset; }
const char *np_pdb_path(const np_pdb *pdb) { return pdb->path; }

np_pdb_view np_pdb_get_view(const np_pdb *pdb)
{
    np_pdb_view v = {np_pdb_payload(pdb), pdb->h.entries, pdb->h.encoding};
    return v;
}
