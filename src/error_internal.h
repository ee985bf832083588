/* error_internal.h - the one way library code fills a caller's message buffer. */
#ifndef NPUZZLE_ERROR_INTERNAL_H
#define NPUZZLE_ERROR_INTERNAL_H

#include <stddef.h>

/* Format a message into err (when err and errlen are set) and return code. */
#if defined(__GNUC__)
__attribute__((format(printf, 4, 5)))
#endif
int np__fail(int code, char *err, size_t errlen, const char *fmt, ...);

#ifdef __clang_analyzer__
/* The analyser sees one file at a time and would otherwise assume a failure
 * path may return NP_OK with its outputs unset. (error.c writes the name in
 * parentheses so that its definition is not expanded.) */
#define np__fail(code, ...) (np__fail((code), __VA_ARGS__), (code))
#endif

#endif
