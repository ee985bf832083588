/* pdb_header.c - the .pdb header: its 256 bytes encoded, decoded and checked (also from a file),
 * and the names and sizes it implies. */
#include "pdb_header_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <xxhash.h>

#include "npuzzle/error.h"
#include "npuzzle/rank.h"
#include "error_internal.h"

#define HDR_CHECKED 248u /* the header checksum covers bytes 0..247 */

/* ---- names and sizes ------------------------------------------------------ */

const char *np_pdb_encoding_name(int encoding)
{
    switch (encoding) {
    case NP_PDB_ENC_8BIT: return "8bit";
    case NP_PDB_ENC_4BIT: return "4bit";
    case NP_PDB_ENC_ZA: return "4bit+za";
    case NP_PDB_ENC_AUTO: return "auto";
    }
    return "unknown";
}

uint64_t np_pdb_payload_bytes(int encoding, uint64_t entries)
{
    return encoding == NP_PDB_ENC_4BIT ? entries / 2 + (entries & 1) : entries;
}

int np_pdb_filename(char *buf, size_t buflen, const np_geom *g, const uint8_t *tiles, int ntiles)
{
    return np_pdb_filename_region(buf, buflen, g, tiles, ntiles, 0);
}

/* The name of a pattern's table, with "-rC" for a goal region and "-z" for
 * the zero-aware table. */
static int table_filename(char *buf, size_t buflen, const np_geom *g, const uint8_t *tiles,
                          int ntiles, int goal_region, bool zero_aware)
{
    char tmp[16 + 4 * NP_MAX_CELLS + 8];
    int n = snprintf(tmp, sizeof tmp, "%dx%d-%s-", g->rows, g->cols,
                     g->goal == NP_GOAL_BLANK_LAST ? "bl" : "bf");
    for (int i = 0; i < ntiles && i < NP_MAX_CELLS; i++)
        n += snprintf(tmp + n, sizeof tmp - (size_t)n, i ? ".%d" : "%d", tiles[i]);
    if (goal_region > 0)
        n += snprintf(tmp + n, sizeof tmp - (size_t)n, "-r%d", goal_region - 1);
    n += snprintf(tmp + n, sizeof tmp - (size_t)n, zero_aware ? "-z.pdb" : ".pdb");
    if (buf && buflen)
        snprintf(buf, buflen, "%s", tmp);
    return n;
}

int np_pdb_filename_region(char *buf, size_t buflen, const np_geom *g, const uint8_t *tiles,
                           int ntiles, int goal_region)
{
    return table_filename(buf, buflen, g, tiles, ntiles, goal_region, false);
}

int np_pdb_filename_za(char *buf, size_t buflen, const np_geom *g, const uint8_t *tiles, int ntiles)
{
    return table_filename(buf, buflen, g, tiles, ntiles, 0, true);
}

int np_pdb_filename_region_za(char *buf, size_t buflen, const np_geom *g, const uint8_t *tiles,
                              int ntiles, int goal_region)
{
    return table_filename(buf, buflen, g, tiles, ntiles, goal_region, true);
}

/* ---- little-endian fields ------------------------------------------------ */

static void put_u32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static void put_u64(uint8_t *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static uint32_t get_u32(const uint8_t *p)
{
    uint32_t v = 0;
    for (int i = 3; i >= 0; i--)
        v = (v << 8) | p[i];
    return v;
}

static uint64_t get_u64(const uint8_t *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = (v << 8) | p[i];
    return v;
}

/* Serialise a header into its 256 bytes, checksum included. */
void np__pdb_header_encode(uint8_t out[NP_PDB_HEADER_SIZE], const np_pdb_header *h)
{
    memset(out, 0, NP_PDB_HEADER_SIZE);
    memcpy(out, NP_PDB_MAGIC, 8); /* includes the terminating NUL */
    put_u32(out + 8, h->version);
    put_u32(out + 12, NP_PDB_HEADER_SIZE);
    out[16] = (uint8_t)h->rows;
    out[17] = (uint8_t)h->cols;
    out[18] = (uint8_t)h->goal;
    out[19] = (uint8_t)h->encoding;
    out[20] = (uint8_t)h->ntiles;
    memcpy(out + 24, h->tiles, (size_t)h->ntiles);
    put_u64(out + 88, h->entries);
    put_u64(out + 96, h->payload_offset);
    put_u64(out + 104, h->payload_length);
    put_u64(out + 112, h->payload_xxh3);
    out[120] = (uint8_t)h->max_value;
    memcpy(out + 128, h->generator, strnlen(h->generator, 32));
    out[160] = (uint8_t)h->goal_region;
    put_u64(out + HDR_CHECKED, XXH3_64bits(out, HDR_CHECKED));
}

static bool all_zero(const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (p[i])
            return false;
    return true;
}

/* Decode and check the first `have` bytes of a file of `file_size` bytes.
 * Order matters: magic, then version (a future header may look different),
 * then length, then the header's own checksum, then every field. */
static int header_decode(np_pdb_header *h, const uint8_t *b, size_t have, uint64_t file_size,
                         const char *path, char *err, size_t errlen)
{
    memset(h, 0, sizeof *h);
    size_t m = have < 8 ? have : 8;
    if (memcmp(b, NP_PDB_MAGIC, m) != 0)
        return np__fail(NP_EFORMAT, err, errlen, "%s: not a pattern database (bad magic)", path);
    if (have < 12)
        return np__fail(NP_ETRUNCATED, err, errlen, "%s: truncated header (%zu bytes, need %u)",
                        path, have, NP_PDB_HEADER_SIZE);
    h->version = get_u32(b + 8);
    /* This version's header checksum, computed once: a byte flipped in the
     * version reads as a newer format, and when the header fails the checksum
     * too, both are said. (Not computed on a header cut short.) */
    const bool whole = have >= NP_PDB_HEADER_SIZE;
    const bool sum_bad = whole && get_u64(b + HDR_CHECKED) != XXH3_64bits(b, HDR_CHECKED);
    if (h->version > NP_PDB_FORMAT_VERSION)
        return np__fail(NP_EVERSION, err, errlen,
                        "%s: written by a newer npuzzle (format version %u, this one reads %u)%s",
                        path, h->version, NP_PDB_FORMAT_VERSION,
                        sum_bad ? ", or damaged (this version's header checksum does not match)"
                                : "");
    if (h->version == 0)
        return np__fail(NP_EFORMAT, err, errlen, "%s: bad format version 0", path);
    /* Versions 1-3 stored the same values under other indices (pdb_file.h). */
    if (h->version < NP_PDB_FORMAT_VERSION)
        return np__fail(NP_EVERSION, err, errlen,
                        "%s: written by an older npuzzle (format version %u, this one reads %u); "
                        "npuzzle gen rebuilds it",
                        path, h->version, NP_PDB_FORMAT_VERSION);
    if (!whole)
        return np__fail(NP_ETRUNCATED, err, errlen, "%s: truncated header (%zu bytes, need %u)",
                        path, have, NP_PDB_HEADER_SIZE);
    if (sum_bad)
        return np__fail(NP_ECHECKSUM, err, errlen, "%s: header checksum mismatch (file corrupt)",
                        path);
    if (get_u32(b + 12) != NP_PDB_HEADER_SIZE)
        return np__fail(NP_EFORMAT, err, errlen, "%s: bad header size %u", path, get_u32(b + 12));

    h->rows = b[16];
    h->cols = b[17];
    h->goal = (np_goal)b[18];
    h->encoding = b[19];
    h->ntiles = b[20];
    h->entries = get_u64(b + 88);
    h->payload_offset = get_u64(b + 96);
    h->payload_length = get_u64(b + 104);
    h->payload_xxh3 = get_u64(b + 112);
    h->max_value = b[120];
    memcpy(h->generator, b + 128, 32);
    h->generator[32] = '\0';
    h->goal_region = b[160];

    if (h->rows < NP_MIN_SIDE || h->rows > NP_MAX_SIDE || h->cols < NP_MIN_SIDE ||
        h->cols > NP_MAX_SIDE)
        return np__fail(NP_EFORMAT, err, errlen, "%s: bad board size %dx%d in header", path,
                        h->rows, h->cols);
    int cells = h->rows * h->cols;
    if (b[18] > NP_GOAL_BLANK_LAST)
        return np__fail(NP_EFORMAT, err, errlen, "%s: bad goal convention %d in header", path,
                        b[18]);
    if (h->encoding != NP_PDB_ENC_8BIT && h->encoding != NP_PDB_ENC_4BIT &&
        h->encoding != NP_PDB_ENC_ZA)
        return np__fail(NP_EFORMAT, err, errlen, "%s: unknown entry encoding %d", path,
                        h->encoding);
    if (h->ntiles < 1 || h->ntiles > NP_RANK_MAX_K || h->ntiles >= cells)
        return np__fail(NP_EFORMAT, err, errlen, "%s: bad tile count %d", path, h->ntiles);
    uint64_t seen = 0;
    for (int i = 0; i < h->ntiles; i++) {
        int t = b[24 + i];
        if (t < 1 || t >= cells || (seen >> t & 1))
            return np__fail(NP_EFORMAT, err, errlen, "%s: bad tile %d in header", path, t);
        seen |= UINT64_C(1) << t;
        h->tiles[i] = (uint8_t)t;
    }
    if (h->goal_region > cells)
        return np__fail(NP_EFORMAT, err, errlen, "%s: bad goal region %d in header", path,
                        h->goal_region);
    if (!all_zero(b + 21, 3) || !all_zero(b + 24 + h->ntiles, (size_t)(64 - h->ntiles)) ||
        !all_zero(b + 121, 7) || !all_zero(b + 161, 87))
        return np__fail(NP_EFORMAT, err, errlen, "%s: malformed header (stray bytes)", path);
    /* The generator is text that `npuzzle info` prints: printable ASCII, then
     * NULs only (no escape sequence reaches a terminal from a forged file). */
    size_t glen = strnlen(h->generator, 32);
    for (size_t i = 0; i < 32; i++)
        if (i < glen ? b[128 + i] < 0x20 || b[128 + i] > 0x7e : b[128 + i] != 0)
            return np__fail(NP_EFORMAT, err, errlen,
                            "%s: malformed header (generator byte %zu is 0x%02x)", path, i,
                            b[128 + i]);
    np_ranker r; /* the index's count of placements (rank.h) */
    if (np_ranker_init(&r, cells, h->ntiles) != NP_OK || h->entries != r.count)
        return np__fail(NP_EFORMAT, err, errlen,
                        "%s: entry count %llu does not match %d tiles on %d cells", path,
                        (unsigned long long)h->entries, h->ntiles, cells);
    if (h->payload_offset < NP_PDB_HEADER_SIZE || h->payload_offset % NP_PDB_ALIGN ||
        h->payload_offset > (UINT64_C(1) << 40))
        return np__fail(NP_EFORMAT, err, errlen, "%s: bad payload offset %llu", path,
                        (unsigned long long)h->payload_offset);
    if (h->payload_length != np_pdb_payload_bytes(h->encoding, h->entries))
        return np__fail(NP_EFORMAT, err, errlen,
                        "%s: payload length %llu does not match %llu entries", path,
                        (unsigned long long)h->payload_length, (unsigned long long)h->entries);
    uint64_t end = h->payload_offset + h->payload_length;
    if (file_size == NP__PDB_SIZE_UNKNOWN)
        return NP_OK;
    if (file_size < end)
        return np__fail(NP_ETRUNCATED, err, errlen,
                        "%s: truncated payload (file has %llu bytes, header says %llu)", path,
                        (unsigned long long)file_size, (unsigned long long)end);
    if (file_size > end)
        return np__fail(NP_EFORMAT, err, errlen, "%s: %llu stray bytes after the payload", path,
                        (unsigned long long)(file_size - end));
    return NP_OK;
}

int np__pdb_header_decode(np_pdb_header *h, const uint8_t b[NP_PDB_HEADER_SIZE], const char *path,
                          char *err, size_t errlen)
{
    return header_decode(h, b, NP_PDB_HEADER_SIZE, NP__PDB_SIZE_UNKNOWN, path, err, errlen);
}

static int format_tiles(char *buf, size_t len, const uint8_t *tiles, int n)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < n && used < len; i++) {
        int w = snprintf(buf + used, len - used, i ? ",%d" : "%d", tiles[i]);
        if (w < 0)
            break;
        used += (size_t)w;
    }
    return (int)used;
}

int np__pdb_check_expect(const np_pdb_header *h, const np_pdb_expect *e, const char *path,
                         char *err, size_t errlen)
{
    if (!e)
        return NP_OK;
    if ((e->rows && e->rows != h->rows) || (e->cols && e->cols != h->cols))
        return np__fail(NP_EMISMATCH, err, errlen, "%s: is for a %dx%d board, expected %dx%d", path,
                        h->rows, h->cols, e->rows ? e->rows : h->rows, e->cols ? e->cols : h->cols);
    if (e->goal >= 0 && e->goal != (int)h->goal)
        return np__fail(NP_EMISMATCH, err, errlen, "%s: is for the %s goal, expected %s", path,
                        np_goal_name(h->goal), np_goal_name((np_goal)e->goal));
    if (e->ntiles &&
        (e->ntiles != h->ntiles || !e->tiles ||
         memcmp(e->tiles, h->tiles, (size_t)h->ntiles) != 0)) {
        char have[4 * NP_MAX_CELLS], want[4 * NP_MAX_CELLS];
        format_tiles(have, sizeof have, h->tiles, h->ntiles);
        format_tiles(want, sizeof want, e->tiles ? e->tiles : h->tiles,
                     e->ntiles < NP_MAX_CELLS ? e->ntiles : NP_MAX_CELLS);
        return np__fail(NP_EMISMATCH, err, errlen, "%s: is for pattern %s, expected %s", path, have,
                        want);
    }
    if (e->goal_region >= 0 && e->goal_region != h->goal_region) {
        /* the table of another goal (its blank in another region): not these lookups' */
        if (!h->goal_region)
            return np__fail(NP_EMISMATCH, err, errlen,
                            "%s: is the standard table, expected the one with the goal's blank "
                            "in cell %d's region",
                            path, e->goal_region - 1);
        return np__fail(NP_EMISMATCH, err, errlen,
                        "%s: is the table with the goal's blank in cell %d's region, expected %s",
                        path, h->goal_region - 1,
                        e->goal_region ? "another region" : "the standard one");
    }
    return NP_OK;
}

/* ---- reading a file's header -------------------------------------------- */

int np__open_read(const char *file, const char *name, bool regular, struct stat *st, char *err,
                  size_t errlen)
{
    /* O_NONBLOCK: a FIFO in a table's place must not hang the open; it is
     * refused below, and a regular file's reads do not heed the flag. */
    const int fd = open(file, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0)
        return np__fail(errno == ENOENT ? NP_ENOTFOUND : NP_EIO, err, errlen, "%s: cannot open: %s",
                        name, strerror(errno));
    int rc = NP_OK;
    if (fstat(fd, st) != 0)
        rc = np__fail(NP_EIO, err, errlen, "%s: cannot stat: %s", name, strerror(errno));
    else if ((regular || S_ISFIFO(st->st_mode)) && !S_ISREG(st->st_mode))
        rc = np__fail(NP_EFORMAT, err, errlen, "%s: not a regular file", name);
    if (rc != NP_OK) {
        close(fd);
        return rc;
    }
    return fd;
}

/* Open `file` and decode its header (messages call it `name`). On success
 * *fd_out is the open descriptor (or closed when fd_out is NULL) and *size the
 * file's length; with `regular`, anything but a regular file is refused. */
int np__pdb_open_header(np_pdb_header *h, int *fd_out, uint64_t *size, const char *file,
                        const char *name, bool regular, char *err, size_t errlen)
{
    struct stat st;
    const int fd = np__open_read(file, name, regular, &st, err, errlen);
    if (fd < 0)
        return fd;
    uint8_t b[NP_PDB_HEADER_SIZE];
    int rc;
    ssize_t n = pread(fd, b, sizeof b, 0);
    if (n < 0)
        rc = np__fail(NP_EIO, err, errlen, "%s: read failed: %s", name, strerror(errno));
    else
        rc = header_decode(h, b, (size_t)n, (uint64_t)st.st_size, name, err, errlen);
    /* The format has zeros from the header's end up to the payload: a byte
     * there is damage that no checksum covers. */
    uint8_t pad[NP_PDB_ALIGN];
    for (uint64_t off = NP_PDB_HEADER_SIZE; rc == NP_OK && off < h->payload_offset;) {
        const size_t want =
            h->payload_offset - off < sizeof pad ? (size_t)(h->payload_offset - off) : sizeof pad;
        ssize_t got = pread(fd, pad, want, (off_t)off);
        if (got <= 0) {
            rc = np__fail(NP_EIO, err, errlen, "%s: read failed: %s", name,
                          got < 0 ? strerror(errno) : "unexpected end of file");
            break;
        }
        for (ssize_t i = 0; i < got; i++)
            if (pad[i]) {
                rc = np__fail(NP_EFORMAT, err, errlen,
                              "%s: byte %llu, between the header and the payload, is not zero",
                              name, (unsigned long long)off + (unsigned long long)i);
                break;
            }
        off += (uint64_t)got;
    }
    if (rc != NP_OK || !fd_out) {
        close(fd);
    } else {
        *fd_out = fd;
        *size = (uint64_t)st.st_size;
    }
    return rc;
}

int np_pdb_read_header(np_pdb_header *out, const char *path, char *err, size_t errlen)
{
    return np__pdb_open_header(out, NULL, NULL, path, path, false, err, errlen);
}
