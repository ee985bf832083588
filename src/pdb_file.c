/* pdb_file.c - reading a .pdb: open (unpacking a .pdb.zst once), map at a 2 MiB-aligned address,
 * verify, close, and the accessors. */
#include "npuzzle/pdb_file.h"

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <xxhash.h>

#include "npuzzle/error.h"
#include "atomic_file_internal.h"
#include "error_internal.h"
#include "pdb_header_internal.h"
#include "pdb_stamp_internal.h"
#include "pdb_zstd_internal.h"

struct np_pdb {
    char *path;
    uint8_t *map;
    size_t map_len;
    np_pdb_header h;
    int fd;         /* the mapped file, kept open for np_pdb_recheck */
    np__file_id id; /* its identity once open and checked */
    bool verified;  /* its payload hashed right on open (or its record says so) */
    bool stamp_due; /* hashed on open, to be recorded (NP__PDB_OPEN_STAMP_LATER) */
};

/* p->id from the open file. @return NP_OK or NP_EIO naming the file. */
static int note_identity(np_pdb *p, char *err, size_t errlen)
{
    struct stat st;
    if (fstat(p->fd, &st) != 0)
        return np__fail(NP_EIO, err, errlen, "%s: cannot stat: %s", p->path, strerror(errno));
    np__file_id_of(&p->id, &st);
    return NP_OK;
}

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
static int map_checked(np_pdb **out, const char *file, const char *name,
                       const np_pdb_expect *expect, unsigned flags, char *err, size_t errlen)
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
    if (map == MAP_FAILED) {
        int e = errno;
        close(fd);
        return np__fail(NP_EIO, err, errlen, "%s: mmap failed: %s", name, strerror(e));
    }
    np_pdb *p = calloc(1, sizeof *p);
    char *pathcopy = strdup(name);
    if (!p || !pathcopy) {
        munmap(map, len);
        close(fd);
        free(p);
        free(pathcopy);
        return np__fail(NP_ENOMEM, err, errlen, "%s: out of memory", name);
    }
    p->path = pathcopy;
    p->map = map;
    p->map_len = len;
    p->h = h;
    p->fd = fd;
    rc = note_identity(p, err, errlen);
    /* A stamp speaks for the file by its name: not for a temporary one. */
    const bool stamp = (flags & NP_PDB_OPEN_STAMP) && file == name;
    if (rc == NP_OK && stamp && !(flags & NP_PDB_OPEN_NOVERIFY))
        p->verified = np__pdb_stamp_match(file, &p->id, h.payload_xxh3);
    if (rc == NP_OK && !(flags & NP_PDB_OPEN_NOVERIFY) && !p->verified) {
        /* The checksum reads every page once, in order: the faults bring the
         * file in by read-ahead (in 2 MiB folios, thanks to MADV_HUGEPAGE). */
        rc = np_pdb_verify(p, err, errlen);
        p->verified = rc == NP_OK;
        if (rc == NP_OK && stamp && (flags & NP__PDB_OPEN_STAMP_LATER))
            p->stamp_due = true;
        else if (rc == NP_OK && stamp)
            np__pdb_stamp_add(file, &p->id, h.payload_xxh3);
    }
    if (rc != NP_OK) {
        np_pdb_close(p);
        return rc;
    }
    /* Lookups then touch entries at random: no read-ahead around them. */
    (void)madvise(p->map, p->map_len, MADV_RANDOM);
    *out = p;
    return NP_OK;
}

int np__pdb_locate(const char *path, bool *packed, char *err, size_t errlen)
{
    struct stat st;
    *packed = false;
    if (stat(path, &st) == 0)
        return NP_OK;
    if (errno == ENAMETOOLONG)
        return np__fail(NP_EINVAL, err, errlen, "%s: path too long", path);
    if (errno != ENOENT)
        return np__fail(NP_EIO, err, errlen, "%s: cannot open: %s", path, strerror(errno));
    char zst[PATH_MAX];
    if (snprintf(zst, sizeof zst, "%s.zst", path) >= (int)sizeof zst)
        return np__fail(NP_EINVAL, err, errlen, "%s: path too long", path);
    if (stat(zst, &st) != 0)
        return np__fail(NP_ENOTFOUND, err, errlen, "%s: not found (nor %s)", path, zst);
    *packed = true;
    return NP_OK;
}

int np_pdb_open_ex(np_pdb **out, const char *path, const np_pdb_expect *expect, unsigned flags,
                   char *err, size_t errlen)
{
    if (out)
        *out = NULL; /* NULL on every failure, a NULL path's too */
    if (!out || !path)
        return np__fail(NP_EINVAL, err, errlen, "np_pdb_open: NULL argument");
    bool packed = false;
    int rc = np__pdb_locate(path, &packed, err, errlen);
    if (rc == NP_EIO || (rc == NP_OK && !packed)) /* the open says what is wrong */
        return map_checked(out, path, path, expect, flags, err, errlen);
    if (rc != NP_OK)
        return rc;

    char zst[PATH_MAX];
    snprintf(zst, sizeof zst, "%s.zst", path); /* np__pdb_locate checked its length */

    /* Unpack next to it under a temporary name, check, then rename: two
     * processes racing here each rename a complete, identical file. */
    char tmp[PATH_MAX];
    int fd = np__make_temp(path, tmp, sizeof tmp, err, errlen);
    if (fd < 0)
        return fd;
    rc = np__pdb_unpack_fd(zst, fd, err, errlen);
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
        rc = np__fail(NP_EIO, err, errlen, "%s: cannot rename the unpacked file into place: %s",
                      path, strerror(errno));
        unlink(tmp);
        np_pdb_close(*out);
        *out = NULL;
        return rc;
    }
    free((*out)->path);
    (*out)->path = strdup(path);
    /* The rename changed the file's change time. (Not recorded: just
     * changed, it is within the settling time; a later open records it.) */
    rc = (*out)->path ? note_identity(*out, err, errlen)
                      : np__fail(NP_ENOMEM, err, errlen, "%s: out of memory", path);
    if (rc != NP_OK) {
        np_pdb_close(*out);
        *out = NULL;
        return rc;
    }
    return NP_OK;
}

int np_pdb_open(np_pdb **out, const char *path, const np_pdb_expect *expect, char *err,
                size_t errlen)
{
    return np_pdb_open_ex(out, path, expect, 0, err, errlen);
}

void np__pdb_stamp_due(np_pdb *const *pdbs, int n)
{
    np__stamp *due = malloc((size_t)(n > 0 ? n : 1) * sizeof *due);
    int k = 0;
    for (int i = 0; due && i < n; i++)
        if (pdbs[i] && pdbs[i]->stamp_due) {
            due[k++] = (np__stamp){pdbs[i]->path, &pdbs[i]->id, pdbs[i]->h.payload_xxh3};
            pdbs[i]->stamp_due = false;
        }
    np__pdb_stamp_add_many(due, k);
    free(due);
}

int np_pdb_verify(const np_pdb *pdb, char *err, size_t errlen)
{
    uint64_t sum = XXH3_64bits(pdb->map + pdb->h.payload_offset, (size_t)pdb->h.payload_length);
    if (sum != pdb->h.payload_xxh3)
        return np__fail(
            NP_ECHECKSUM, err, errlen,
            "%s: payload checksum mismatch (file corrupt; regenerate it with npuzzle gen --force)",
            pdb->path);
    return NP_OK;
}

int np_pdb_recheck(const np_pdb *pdb, char *err, size_t errlen)
{
    struct stat st;
    np__file_id now;
    if (fstat(pdb->fd, &st) == 0) {
        np__file_id_of(&now, &st);
        if (pdb->verified && !pdb->id.recent && np__file_id_equal(&now, &pdb->id))
            return NP_OK; /* nothing wrote to it (pdb_stamp_internal.h) */
    }
    return np_pdb_verify(pdb, err, errlen);
}

void np_pdb_close(np_pdb *pdb)
{
    if (!pdb)
        return;
    if (pdb->map)
        munmap(pdb->map, pdb->map_len);
    if (pdb->fd >= 0)
        close(pdb->fd);
    free(pdb->path);
    free(pdb);
}

const np_pdb_header *np_pdb_get_header(const np_pdb *pdb)
{
    return &pdb->h;
}
int np_pdb_encoding(const np_pdb *pdb)
{
    return pdb->h.encoding;
}
uint64_t np_pdb_entries(const np_pdb *pdb)
{
    return pdb->h.entries;
}
int np_pdb_ntiles(const np_pdb *pdb)
{
    return pdb->h.ntiles;
}
const uint8_t *np_pdb_tiles(const np_pdb *pdb)
{
    return pdb->h.tiles;
}
const uint8_t *np_pdb_payload(const np_pdb *pdb)
{
    return pdb->map + pdb->h.payload_offset;
}
const char *np_pdb_path(const np_pdb *pdb)
{
    return pdb->path;
}

np_pdb_view np_pdb_get_view(const np_pdb *pdb)
{
    np_pdb_view v = {np_pdb_payload(pdb), pdb->h.entries, pdb->h.encoding};
    return v;
}
