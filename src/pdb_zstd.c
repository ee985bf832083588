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
    int in = open(src, O_RDONLY | O_CLOEXEC);
    if (in < 0)
        return np__fail(errno == ENOENT ? NP_ENOTFOUND : NP_EIO, err, errlen, "%s: cannot open: %s",
                        src, strerror(errno));
    struct stat st;
    if (fstat(in, &st) != 0) {
        int e = errno;
        close(in);
        return np__fail(NP_EIO, err, errlen, "%s: %s", src, strerror(e));
    }
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

/* Decompress src into the open file `out`, verifying the frame checksum. */
int np__pdb_unpack_fd(const char *src, int out, char *err, size_t errlen)
{
    int in = open(src, O_RDONLY | O_CLOEXEC);
    if (in < 0)
        return np__fail(errno == ENOENT ? NP_ENOTFOUND : NP_EIO, err, errlen, "%s: cannot open: %s",
                        src, strerror(errno));
    ZSTD_DCtx *dc = ZSTD_createDCtx();
    size_t inlen = ZSTD_DStreamInSize(), outlen = ZSTD_DStreamOutSize();
    uint8_t *ibuf = malloc(inlen), *obuf = malloc(outlen);
    int rc = NP_OK;
    if (!dc || !ibuf || !obuf) {
        rc = np__fail(NP_ENOMEM, err, errlen, "%s: out of memory", src);
        goto done;
    }
    uint64_t written = 0, read_total = 0;
    size_t pending = 1; /* 0 exactly when the last frame ended cleanly */
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
            if (np__write_all(out, obuf, ob.pos, written) != 0) {
                rc = np__fail(NP_EIO, err, errlen, "%s: write failed while unpacking: %s", src,
                              strerror(errno));
                goto done;
            }
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
        if (np__write_all(out, obuf, ob.pos, written) != 0) {
            rc = np__fail(NP_EIO, err, errlen, "%s: write failed while unpacking: %s", src,
                          strerror(errno));
            goto done;
        }
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
