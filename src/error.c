/* error.c - every message string of the np_error codes lives here. */
#include "npuzzle/error.h"

#include <stdarg.h>
#include <stdio.h>

#include "error_internal.h"

const char *np_strerror(int code)
{
    switch ((np_error)code) {
    case NP_OK: return "success";
    case NP_EINVAL: return "invalid argument";
    case NP_ENOMEM: return "out of memory";
    case NP_EPARSE: return "malformed input";
    case NP_EIO: return "input/output error";
    case NP_ENOTFOUND: return "not found";
    case NP_EFORMAT: return "not a valid npuzzle file";
    case NP_ECHECKSUM: return "checksum mismatch (file corrupt)";
    case NP_EVERSION:
        return "file in a format version this npuzzle does not read "
               "(newer, or older: rebuild it with npuzzle gen)";
    case NP_EMISMATCH: return "file is for another board or pattern";
    case NP_ETRUNCATED: return "file truncated";
    case NP_ELIMIT: return "limit reached";
    case NP_ETOOBIG:
        return "too big: more memory than allowed, or a board larger than the method takes";
    case NP_EUNSOLVABLE: return "board is not solvable";
    case NP_EINTR: return "interrupted";
    case NP_EUNSUPPORTED: return "not supported";
    }
    return "unknown error";
}

/* The parentheses keep error_internal.h's analyser macro from expanding here. */
/* clang-format off */
int (np__fail)(int code, char *err, size_t errlen, const char *fmt, ...)
/* clang-format on */
{
    if (err && errlen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, errlen, fmt, ap);
        va_end(ap);
    }
    return code;
}

#ifndef NP_VERSION
#define NP_VERSION "unknown"
#endif

const char *np_version(void)
{
    return NP_VERSION;
}
