/* error.h - the one error enum of libnpuzzle and its messages. */
#ifndef NPUZZLE_ERROR_H
#define NPUZZLE_ERROR_H

#ifdef __cplusplus
extern "C" {
#endif

/*! Error codes. Every library function that can fail returns an `int` that is
 *  NP_OK (0) or one of these negative values; np_strerror() names it. Each
 *  function's comment lists the codes it returns and says "Cannot fail" when
 *  it has none.
 *
 *  Conventions of every module, unless a function's comment says otherwise:
 *  - Pointer arguments are borrowed: read (or, for outputs, written) during
 *    the call only, never kept, never freed. The caller keeps ownership.
 *  - Outputs are written only on success; on failure they are left as they were.
 *  - `char *err, size_t errlen`: the caller's buffer. On failure a one-line,
 *    NUL-terminated message is written there, truncated to errlen; nothing is
 *    written when err is NULL or errlen is 0. On success err is left as it was.
 *  - Returned strings are static (never freed, valid for the whole program)
 *    or point into a handle, valid until that handle is closed. */
typedef enum np_error {
    NP_OK = 0,
    NP_EINVAL = -1,      /*!< invalid argument (a bug in the caller) */
    NP_ENOMEM = -2,      /*!< out of memory */
    NP_EPARSE = -3,      /*!< malformed input text */
    NP_EIO = -4,         /*!< read, write, rename or map failed (errno kept) */
    NP_ENOTFOUND = -5,   /*!< file or named item not found */
    NP_EFORMAT = -6,     /*!< not a file of ours (bad magic) or malformed header */
    NP_ECHECKSUM = -7,   /*!< payload checksum mismatch */
    NP_EVERSION = -8,    /*!< file in a format version this npuzzle does not read: newer,
                              or older and to be rebuilt with npuzzle gen */
    NP_EMISMATCH = -9,   /*!< file is valid but for another board, goal or pattern */
    NP_ETRUNCATED = -10, /*!< file shorter than its header says */
    NP_ELIMIT = -11,     /*!< node, time or memory limit reached */
    NP_ETOOBIG =
        -12, /*!< the job does not fit in the memory allowed, or the method cannot take a board that large (A*: more than 16 cells) */
    NP_EUNSOLVABLE = -13, /*!< board is in the other parity class than the goal */
    NP_EINTR = -14,       /*!< interrupted by the caller */
    NP_EUNSUPPORTED = -15 /*!< valid request this build or board cannot serve */
} np_error;

/*! @return a static, human-readable message for an np_error code (never NULL;
 *  "unknown error" for any other value). Cannot fail. Thread-safe. */
const char *np_strerror(int code);

/*! The library's version, as meson.build gives it ("0.1.0"); static storage,
 *  never NULL. Cannot fail. */
const char *np_version(void);

#ifdef __cplusplus
}
#endif

#endif
