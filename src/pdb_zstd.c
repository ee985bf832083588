/* pdb_zstd.c - zstd for .pdb files: compressing one to .pdb.zst and unpacking one, frame checksum
 * on and verified. */
#include "pdb_zstd_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>
#include <zstd_errors.h>

#include "npuzzle/error.h"
#include "npuzzle/pdb_file.h"
#include "atomic_file_internal.h"
#include "error_internal.h"
#include "pdb_header_internal.h"

static ssize_t read_some(int fd, void *buf, size_t len)
{
    for (;;) {
        ssize_t n = read(fd, buf, len);
        if (n >= 0 || errno != EINTR)
            return n;
    }
}

int np_pdb_compress(const char *src, const char *dst, int level, int threads, uint64_t *out_bytes,
                    char *err, size_t errlen)
{
    return np_pdb_compress_cancel(src, dst, level, threads, NULL, out_bytes, err, errlen);
}

int np_pdb_compress_cancel(const char *src, const char *dst, int level, int threads,
                           const volatile int *cancel, uint64_t *out_bytes, char *err,
                           size_t errlen)
{
    struct stat st;
    const int in = np__open_read(src, src, true, &st, err, errlen);
    if (in < 0)
        return in;
    char tmp[PATH_MAX];
    int out = np__make_temp(dst, tmp, sizeof tmp, err, errlen);
    if (out < 0) {
        close(in);
        return out;
    }
    ZSTD_CCtx *cc = ZSTD_createCCtx();
    size_t inlen = ZSTD_CStreamInSize(), outlen = ZSTD_CStreamOutSize();
    uint8_t *ibuf = malloc(inlen), *obuf = malloc(outlen);
    uint64_t written = 0, total_in = 0;
    int rc = NP_OK;
    if (!cc || !ibuf || !obuf) {
        rc = np__fail(NP_ENOMEM, err, errlen, "%s: out of memory", dst);
        goto done;
    }
    ZSTD_CCtx_setParameter(cc, ZSTD_c_compressionLevel, level);
    ZSTD_CCtx_setParameter(cc, ZSTD_c_checksumFlag, 1);
    /* Worker threads only exist in a multithreaded libzstd: a refusal is not an error. */
    if (threads > 1 && ZSTD_isError(ZSTD_CCtx_setParameter(cc, ZSTD_c_nbWorkers, threads)))
        ZSTD_CCtx_setParameter(cc, ZSTD_c_nbWorkers, 0);
    ZSTD_CCtx_setPledgedSrcSize(cc, (unsigned long long)st.st_size);

    for (bool last = false; !last;) {
        ssize_t n = read_some(in, ibuf, inlen);
        if (n < 0) {
            rc = np__fail(NP_EIO, err, errlen, "%s: read failed: %s", src, strerror(errno));
            goto done;
        }
        total_in += (uint64_t)n;
        last = n == 0 || total_in >= (uint64_t)st.st_size;
        ZSTD_inBuffer ib = {ibuf, (size_t)n, 0};
        for (bool finished = false; !finished;) {
            /* before every call, the end's flush too (with worker threads,
             * a call can wait inside zstd until a job ends: at a high level,
             * seconds; the flag is seen after it) */
            if (cancel && *cancel) {
                rc = np__fail(NP_EINTR, err, errlen, "%s: interrupted", dst);
                goto done;
            }
            ZSTD_outBuffer ob = {obuf, outlen, 0};
            size_t left = ZSTD_compressStream2(cc, &ob, &ib, last ? ZSTD_e_end : ZSTD_e_continue);
            if (ZSTD_isError(left)) {
                rc = np__fail(NP_EIO, err, errlen, "%s: zstd: %s", dst, ZSTD_getErrorName(left));
                goto done;
            }
            if (np__write_all(out, obuf, ob.pos, written) != 0) {
                rc = np__fail(NP_EIO, err, errlen, "%s: write failed: %s", dst, strerror(errno));
                goto done;
            }
            written += ob.pos;
            finished = last ? left == 0 : ib.pos == ib.size;
        }
    }
    if (total_in != (uint64_t)st.st_size)
        rc = np__fail(NP_EIO, err, errlen, "%s: changed while being compressed", src);
done:
    ZSTD_freeCCtx(cc);
    free(ibuf);
    free(obuf);
    close(in);
    if (rc != NP_OK)
        return np__abort_temp(out, tmp, rc);
    rc = np__commit_temp(out, tmp, dst, err, errlen);
    if (rc == NP_OK && out_bytes)
        *out_bytes = written;
    return rc;
}

/* `len` bytes unpacked at offset `at` (already written): keep the header's
 * bytes, check it once whole, and the total against the length it gives
 * (*end, NP__PDB_SIZE_UNKNOWN until then). @return NP_OK or an error. */
static int unpacked(uint8_t head[NP_PDB_HEADER_SIZE], uint64_t *end, const uint8_t *buf, size_t len,
                    uint64_t at, const char *src, char *err, size_t errlen)
{
    if (at < NP_PDB_HEADER_SIZE) {
        size_t k = NP_PDB_HEADER_SIZE - (size_t)at < len ? NP_PDB_HEADER_SIZE - (size_t)at : len;
        memcpy(head + at, buf, k);
        if (at + k == NP_PDB_HEADER_SIZE) {
            np_pdb_header h;
            int rc = np__pdb_header_decode(&h, head, src, err, errlen);
            if (rc != NP_OK)
                return rc;
            *end = h.payload_offset + h.payload_length;
        }
    }
    if (*end != NP__PDB_SIZE_UNKNOWN && at + len > *end)
        return np__fail(NP_EFORMAT, err, errlen,
                        "%s: unpacks to more than the %llu bytes its header gives", src,
                        (unsigned long long)*end);
    return NP_OK;
}

/* Where unpack_to() puts what it unpacks: `len` bytes at offset `at`.
 * @return NP_OK or an error, message in err. */
typedef int (*unpack_sink)(void *ctx, const uint8_t *buf, size_t len, uint64_t at, const char *src,
                           char *err, size_t errlen);

static int sink_write(void *ctx, const uint8_t *buf, size_t len, uint64_t at, const char *src,
                      char *err, size_t errlen)
{
    if (np__write_all(*(const int *)ctx, buf, len, at) != 0)
        return np__fail(NP_EIO, err, errlen, "%s: write failed while unpacking: %s", src,
                        strerror(errno));
    return NP_OK;
}

/* The file unpacked output is compared with: its descriptor and name. */
typedef struct compare_ctx {
    int fd;
    const char *name;
    uint8_t buf[1 << 16];
} compare_ctx;

static int sink_compare(void *ctx, const uint8_t *buf, size_t len, uint64_t at, const char *src,
                        char *err, size_t errlen)
{
    compare_ctx *c = ctx;
    for (size_t done = 0; done < len;) {
        size_t want = len - done < sizeof c->buf ? len - done : sizeof c->buf;
        ssize_t got = pread(c->fd, c->buf, want, (off_t)(at + done));
        if (got < 0)
            return np__fail(NP_EIO, err, errlen, "%s: read failed: %s", c->name, strerror(errno));
        if (got == 0)
            return np__fail(NP_EMISMATCH, err, errlen, "%s: unpacks to more than %s holds", src,
                            c->name);
        if (memcmp(c->buf, buf + done, (size_t)got) != 0) {
            size_t i = 0;
            while (c->buf[i] == buf[done + i])
                i++;
            return np__fail(NP_EMISMATCH, err, errlen, "%s: differs from %s at byte %llu", src,
                            c->name, (unsigned long long)(at + done + i));
        }
        done += (size_t)got;
    }
    return NP_OK;
}

/* Decompress src into `sink`, verifying the frame checksum. @return as
 * np__pdb_unpack_fd, *total the bytes unpacked. */
static int unpack_to(const char *src, unpack_sink sink, void *sink_ctx, uint64_t *total, char *err,
                     size_t errlen)
{
    struct stat st;
    const int in = np__open_read(src, src, true, &st, err, errlen);
    if (in < 0)
        return in;
    ZSTD_DCtx *dc = ZSTD_createDCtx();
    size_t inlen = ZSTD_DStreamInSize(), outlen = ZSTD_DStreamOutSize();
    uint8_t *ibuf = malloc(inlen), *obuf = malloc(outlen);
    int rc = NP_OK;
    uint64_t written = 0, read_total = 0;
    if (!dc || !ibuf || !obuf) {
        rc = np__fail(NP_ENOMEM, err, errlen, "%s: out of memory", src);
        goto done;
    }
    size_t pending = 1; /* 0 exactly when the last frame ended cleanly */
    /* The header is checked as soon as it is out, and the length it gives
     * bounds the rest: a stream that is no table (or a bomb of zeros) stops
     * there, not after filling the disk. */
    uint8_t head[NP_PDB_HEADER_SIZE];
    uint64_t end = NP__PDB_SIZE_UNKNOWN;
    for (;;) {
        ssize_t n = read_some(in, ibuf, inlen);
        if (n < 0) {
            rc = np__fail(NP_EIO, err, errlen, "%s: read failed: %s", src, strerror(errno));
            goto done;
        }
        if (n == 0)
            break;
        read_total += (uint64_t)n;
        ZSTD_inBuffer ib = {ibuf, (size_t)n, 0};
        while (ib.pos < ib.size) {
            ZSTD_outBuffer ob = {obuf, outlen, 0};
            pending = ZSTD_decompressStream(dc, &ob, &ib);
            if (ZSTD_isError(pending)) {
                ZSTD_ErrorCode code = ZSTD_getErrorCode(pending);
                rc =
                    np__fail(code == ZSTD_error_prefix_unknown ? NP_EFORMAT : NP_ECHECKSUM, err,
                             errlen, "%s: damaged zstd data (%s)", src, ZSTD_getErrorName(pending));
                goto done;
            }
            rc = unpacked(head, &end, obuf, ob.pos, written, src, err, errlen);
            if (rc == NP_OK)
                rc = sink(sink_ctx, obuf, ob.pos, written, src, err, errlen);
            if (rc != NP_OK)
                goto done;
            written += ob.pos;
        }
    }
    /* Flush what the decoder still holds once the input is consumed. */
    while (pending != 0 && read_total) {
        ZSTD_inBuffer ib = {ibuf, 0, 0};
        ZSTD_outBuffer ob = {obuf, outlen, 0};
        pending = ZSTD_decompressStream(dc, &ob, &ib);
        if (ZSTD_isError(pending)) {
            rc = np__fail(NP_ECHECKSUM, err, errlen, "%s: damaged zstd data (%s)", src,
                          ZSTD_getErrorName(pending));
            goto done;
        }
        if (ob.pos == 0)
            break;
        rc = unpacked(head, &end, obuf, ob.pos, written, src, err, errlen);
        if (rc == NP_OK)
            rc = sink(sink_ctx, obuf, ob.pos, written, src, err, errlen);
        if (rc != NP_OK)
            goto done;
        written += ob.pos;
    }
    if (read_total == 0)
        rc = np__fail(NP_ETRUNCATED, err, errlen, "%s: empty file", src);
    else if (pending != 0)
        rc = np__fail(NP_ETRUNCATED, err, errlen, "%s: truncated zstd frame", src);
done:
    ZSTD_freeDCtx(dc);
    free(ibuf);
    free(obuf);
    close(in);
    *total = written;
    return rc;
}

int np__pdb_unpack_fd(const char *src, int out, char *err, size_t errlen)
{
    uint64_t total;
    return unpack_to(src, sink_write, &out, &total, err, errlen);
}

int np_pdb_zst_compare(const char *zst, const char *pdb, char *err, size_t errlen)
{
    compare_ctx *c = malloc(sizeof *c);
    if (!c)
        return np__fail(NP_ENOMEM, err, errlen, "%s: out of memory", zst);
    struct stat st;
    const int fd = np__open_read(pdb, pdb, true, &st, err, errlen);
    if (fd < 0) {
        free(c);
        return fd;
    }
    c->name = pdb;
    c->fd = fd;
    uint64_t total = 0;
    int rc = unpack_to(zst, sink_compare, c, &total, err, errlen);
    if (rc == NP_OK && (uint64_t)st.st_size != total)
        rc = np__fail(NP_EMISMATCH, err, errlen, "%s: unpacks to %llu bytes, %s has %llu", zst,
                      (unsigned long long)total, pdb, (unsigned long long)st.st_size);
    free(c);
    close(fd);
    return rc;
}

int np_pdb_decompress(const char *src, const char *dst, char *err, size_t errlen)
{
    char tmp[PATH_MAX];
    int out = np__make_temp(dst, tmp, sizeof tmp, err, errlen);
    if (out < 0)
        return out;
    int rc = np__pdb_unpack_fd(src, out, err, errlen);
    if (rc != NP_OK)
        return np__abort_temp(out, tmp, rc);
    return np__commit_temp(out, tmp, dst, err, errlen);
}
