/* np_utf8.h - the one UTF-8 check, shared by the library and the command line
 * (header only; not installed; np__ as the library's other internals). */
#ifndef NPUZZLE_NP_UTF8_H
#define NPUZZLE_NP_UTF8_H

#include <stdbool.h>
#include <stddef.h>

/* The length of the well-formed UTF-8 sequence at p, which has avail bytes
 * left (RFC 3629: no overlong forms, no surrogates, nothing past U+10FFFF), or
 * 0 when there is none. */
static inline int np__utf8_sequence(const unsigned char *p, size_t avail)
{
    if (avail == 0)
        return 0;
    if (p[0] < 0x80)
        return 1;
    const int n = p[0] >= 0xc2 && p[0] <= 0xdf ? 2
        : p[0] >= 0xe0 && p[0] <= 0xef         ? 3
        : p[0] >= 0xf0 && p[0] <= 0xf4         ? 4
                                               : 0;
    if (n == 0 || (size_t)n > avail)
        return 0;
    /* the second byte's range, narrower after E0, ED, F0 and F4 */
    const unsigned char lo = p[0] == 0xe0 ? 0xa0 : p[0] == 0xf0 ? 0x90 : 0x80;
    const unsigned char hi = p[0] == 0xed ? 0x9f : p[0] == 0xf4 ? 0x8f : 0xbf;
    if (p[1] < lo || p[1] > hi)
        return 0;
    for (int i = 2; i < n; i++)
        if (p[i] < 0x80 || p[i] > 0xbf)
            return 0;
    return n;
}

/* Whether the n bytes at s are well-formed UTF-8. */
static inline bool np__utf8_valid(const char *s, size_t n)
{
    const unsigned char *p = (const unsigned char *)s;
    for (size_t i = 0; i < n;) {
        const int k = np__utf8_sequence(p + i, n - i);
        if (k == 0)
            return false;
        i += (size_t)k;
    }
    return true;
}

#endif
