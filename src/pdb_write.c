/* pdb_write.c - writing a .pdb: checks the table, picks the encoding, writes the payload then the
 * header through a temporary file. */
#include "npuzzle/pdb_file.h"

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

#include "npuzzle/error.h"
#include "npuzzle/rank.h"
#include "atomic_file_internal.h"
#include "error_internal.h"
#include "pdb_header_internal.h"
#include "pdb_pack_internal.h"

#ifndef NP_VERSION
#define NP_VERSION "unknown"
#endif

#define CHUNK_BYTES (4u << 20) /* payload bytes written per write call */

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
    if (o.goal_region < 0 || o.goal_region > g->cells)
        return np__fail(NP_EINVAL, err, errlen, "%s: bad goal region %d", path, o.goal_region);
    /* The table is indexed by cell labels (board.h): Manhattan sums for the
     * 4-bit encoding come from the relabelled board. */
    np_geom labelled;
    if (np_geom_labelled(g, &labelled) != NP_OK)
        return np__fail(NP_EINVAL, err, errlen, "%s: the geometry is already labelled (board.h)",
                        path);
    g = &labelled;
    if (entries != r.count)
        return np__fail(NP_EINVAL, err, errlen, "%s: %llu entries given, the pattern has %llu",
                        path, (unsigned long long)entries, (unsigned long long)r.count);
    if (o.encoding != NP_PDB_ENC_AUTO && o.encoding != NP_PDB_ENC_8BIT &&
        o.encoding != NP_PDB_ENC_4BIT && o.encoding != NP_PDB_ENC_ZA)
        return np__fail(NP_EINVAL, err, errlen, "%s: unknown encoding %d", path, o.encoding);
    if (o.region_gain && o.encoding == NP_PDB_ENC_AUTO)
        o.encoding = NP_PDB_ENC_ZA;
    if ((o.encoding == NP_PDB_ENC_ZA) != (o.region_gain != NULL))
        return np__fail(NP_EINVAL, err, errlen,
                        o.region_gain ? "%s: region gains need the zero-aware encoding"
                                      : "%s: the zero-aware encoding needs region gains",
                        path);
    const bool za = o.encoding == NP_PDB_ENC_ZA;

    /* Encode 4-bit in the same pass as the check when memory allows; else
     * np__pdb_pack4() encodes again chunk by chunk while writing. The
     * zero-aware encoding is always made chunk by chunk (np__pdb_pack_za). */
    uint8_t *packed = NULL;
    if (o.encoding != NP_PDB_ENC_8BIT && !za)
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
    if ((enc == NP_PDB_ENC_4BIT || za) && bad != UINT64_MAX) {
        free(packed);
        return np__fail(NP_EINVAL, err, errlen,
                        "%s: entry %llu (value %d) does not fit the %s encoding", path,
                        (unsigned long long)bad, values[bad], za ? "zero-aware" : "4-bit");
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
    h.goal_region = o.goal_region;
    snprintf(h.generator, sizeof h.generator, "npuzzle %s", NP_VERSION);

    char tmp[PATH_MAX];
    int fd = np__make_temp(path, tmp, sizeof tmp, err, errlen);
    if (fd < 0) {
        free(packed);
        return fd;
    }
    bool chunked = (enc == NP_PDB_ENC_4BIT && !packed) || za;
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
        uint64_t len =
            h.payload_length - done < CHUNK_BYTES ? h.payload_length - done : CHUNK_BYTES;
        const uint8_t *src;
        if (packed) {
            src = packed + done;
        } else if (za) {
            np__pdb_pack_za(&r, g, tiles, values, o.region_gain, done, len, buf, o.threads);
            src = buf;
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
