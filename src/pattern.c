/* pattern.c - parsing and checking partitions, and the built-in catalogue of named ones. */
#include "npuzzle/pattern.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "npuzzle/error.h"
#include "error_internal.h"

/* data/partitions.txt, turned into a string at build time by scripts/embed.py. */
extern const char np__catalog_text[];

const char *np_catalog_text(void)
{
    return np__catalog_text;
}

static int cmp_u8(const void *a, const void *b)
{
    return (int)*(const uint8_t *)a - (int)*(const uint8_t *)b;
}

static bool size_ok(int rows, int cols)
{
    return rows >= NP_MIN_SIDE && rows <= NP_MAX_SIDE && cols >= NP_MIN_SIDE && cols <= NP_MAX_SIDE;
}

int np_partition_check(const np_partition *p, bool cover, char *err, size_t errlen)
{
    if (!size_ok(p->rows, p->cols))
        return np__fail(NP_EINVAL, err, errlen, "unsupported board size %dx%d", p->rows, p->cols);
    int cells = p->rows * p->cols;
    if (p->npatterns < 1 || p->npatterns > NP_PARTITION_MAX)
        return np__fail(NP_EINVAL, err, errlen, "a partition holds 1 to %d patterns, not %d",
                        NP_PARTITION_MAX, p->npatterns);
    int where[NP_MAX_CELLS]; /* pattern number (1-based) holding each tile, 0 = none */
    memset(where, 0, sizeof where);
    for (int i = 0; i < p->npatterns; i++) {
        const np_pattern *pat = &p->patterns[i];
        if (pat->ntiles < 1 || pat->ntiles > NP_PATTERN_MAX_TILES)
            return np__fail(NP_EINVAL, err, errlen, "pattern %d has %d tiles (1 to %d allowed)",
                            i + 1, pat->ntiles, NP_PATTERN_MAX_TILES);
        for (int j = 0; j < pat->ntiles; j++) {
            int t = pat->tiles[j];
            if (t == 0)
                return np__fail(NP_EINVAL, err, errlen,
                                "tile 0 is the blank and cannot be in a pattern (pattern %d)",
                                i + 1);
            if (t >= cells)
                return np__fail(NP_EINVAL, err, errlen,
                                "tile %d is not on a %dx%d board (tiles are 1..%d; pattern %d)", t,
                                p->rows, p->cols, cells - 1, i + 1);
            if (where[t] == i + 1)
                return np__fail(NP_EINVAL, err, errlen, "tile %d appears twice in pattern %d", t,
                                i + 1);
            if (where[t])
                return np__fail(
                    NP_EINVAL, err, errlen,
                    "tile %d is in both pattern %d and pattern %d (patterns must not overlap)", t,
                    where[t], i + 1);
            where[t] = i + 1;
        }
    }
    if (cover)
        for (int t = 1; t < cells; t++)
            if (!where[t])
                return np__fail(NP_EINVAL, err, errlen,
                                "tile %d is in no pattern "
                                "(a partition must cover tiles 1..%d of a %dx%d board)",
                                t, cells - 1, p->rows, p->cols);
    return NP_OK;
}

bool np_partition_covers(const np_partition *p)
{
    return np_partition_check(p, true, NULL, 0) == NP_OK;
}

int np_partition_parse(np_partition *out, const char *text, int rows, int cols, bool cover,
                       char *err, size_t errlen)
{
    if (!size_ok(rows, cols))
        return np__fail(NP_EINVAL, err, errlen, "unsupported board size %dx%d", rows, cols);
    np_partition p;
    memset(&p, 0, sizeof p);
    snprintf(p.name, sizeof p.name, "custom");
    p.rows = rows;
    p.cols = cols;

    if (!text)
        text = ""; /* as documented; the messages quote it */
    const char *s = text;
    /* One pass: a pattern is a run of comma-separated numbers ended by '/' or the end. */
    for (;;) {
        if (p.npatterns == NP_PARTITION_MAX)
            return np__fail(NP_EPARSE, err, errlen, "too many patterns in '%s' (at most %d)", text,
                            NP_PARTITION_MAX);
        np_pattern *pat = &p.patterns[p.npatterns++];
        for (;;) {
            while (*s == ' ' || *s == '\t')
                s++;
            if (*s == '/' || *s == ',' || *s == '\0') {
                if (pat->ntiles == 0 && *s != ',')
                    return np__fail(NP_EPARSE, err, errlen, "pattern %d is empty in '%s'",
                                    p.npatterns, text);
                return np__fail(NP_EPARSE, err, errlen, "missing tile number in pattern %d of '%s'",
                                p.npatterns, text);
            }
            if (!isdigit((unsigned char)*s))
                return np__fail(NP_EPARSE, err, errlen, "'%.20s' is not a tile number (in '%s')", s,
                                text);
            char *end;
            errno = 0;
            long v = strtol(s, &end, 10);
            const char *after = end;
            while (*after == ' ' || *after == '\t')
                after++;
            if (errno || v > 255 || (*after != ',' && *after != '/' && *after != '\0'))
                return np__fail(NP_EPARSE, err, errlen, "'%.*s' is not a tile number (in '%s')",
                                (int)(strcspn(s, ",/")), s, text);
            if (pat->ntiles == NP_PATTERN_MAX_TILES)
                return np__fail(NP_EPARSE, err, errlen, "pattern %d has more than %d tiles",
                                p.npatterns, NP_PATTERN_MAX_TILES);
            pat->tiles[pat->ntiles++] = (uint8_t)v;
            s = after;
            if (*s == ',') {
                s++;
                continue;
            }
            break;
        }
        if (*s == '\0')
            break;
        s++; /* '/' */
    }
    for (int i = 0; i < p.npatterns; i++)
        qsort(p.patterns[i].tiles, (size_t)p.patterns[i].ntiles, 1, cmp_u8);
    int rc = np_partition_check(&p, cover, err, errlen);
    if (rc != NP_OK)
        return rc;
    *out = p;
    return NP_OK;
}

int np_pattern_format(char *buf, size_t buflen, const np_pattern *pat, char sep)
{
    size_t need = 0;
    for (int j = 0; j < pat->ntiles; j++) {
        char tmp[8];
        int n = j ? snprintf(tmp, sizeof tmp, "%c%d", sep, pat->tiles[j])
                  : snprintf(tmp, sizeof tmp, "%d", pat->tiles[j]);
        /* as snprintf: every byte that fits before the terminator, a tile cut too */
        if (buf && need + 1 < buflen) {
            size_t k = buflen - 1 - need < (size_t)n ? buflen - 1 - need : (size_t)n;
            memcpy(buf + need, tmp, k);
        }
        need += (size_t)n;
    }
    if (buf && buflen)
        buf[need < buflen ? need : buflen - 1] = '\0';
    return (int)need;
}

int np_partition_format(char *buf, size_t buflen, const np_partition *p)
{
    size_t need = 0;
    for (int i = 0; i < p->npatterns; i++) {
        if (i) {
            if (buf && need + 1 < buflen)
                buf[need] = '/';
            need++;
        }
        size_t room = buf && need < buflen ? buflen - need : 0;
        need += (size_t)np_pattern_format(room ? buf + need : NULL, room, &p->patterns[i], ',');
    }
    if (buf && buflen)
        buf[need < buflen ? need : buflen - 1] = '\0';
    return (int)need;
}

/* ---- the catalogue ---------------------------------------------------- */

/* One catalogue line split into words (name, size, patterns, default flag). */
typedef struct catalog_line {
    char name[NP_PARTITION_NAME_MAX];
    char size[16];
    char patterns[512];
    bool is_default;
} catalog_line;

/* Copy the next whitespace-separated word of [*s, end) into w. @return false at line end. */
static bool next_word(const char **s, const char *end, char *w, size_t wlen)
{
    const char *p = *s;
    while (p < end && (*p == ' ' || *p == '\t' || *p == '\r'))
        p++;
    if (p == end)
        return false;
    const char *q = p;
    while (q < end && *q != ' ' && *q != '\t' && *q != '\r')
        q++;
    size_t n = (size_t)(q - p);
    if (n >= wlen)
        n = wlen - 1;
    memcpy(w, p, n);
    w[n] = '\0';
    *s = q;
    return true;
}

/* Read the index-th entry of the catalogue text (comments and blank lines skipped). */
static int catalog_entry(catalog_line *out, int index)
{
    const char *s = np__catalog_text;
    int seen = 0;
    while (*s) {
        const char *eol = strchr(s, '\n');
        if (!eol)
            eol = s + strlen(s);
        const char *hash = memchr(s, '#', (size_t)(eol - s));
        const char *end = hash ? hash : eol;
        const char *p = s;
        catalog_line ln;
        memset(&ln, 0, sizeof ln);
        if (next_word(&p, end, ln.name, sizeof ln.name)) {
            if (seen++ == index) {
                char flag[16] = "";
                next_word(&p, end, ln.size, sizeof ln.size);
                next_word(&p, end, ln.patterns, sizeof ln.patterns);
                if (next_word(&p, end, flag, sizeof flag))
                    ln.is_default = !strcmp(flag, "default");
                *out = ln;
                return NP_OK;
            }
        }
        s = *eol ? eol + 1 : eol;
    }
    return NP_ENOTFOUND;
}

/* Turn a catalogue line into a partition (it must cover its board). */
static int catalog_build(np_partition *out, const catalog_line *ln, char *err, size_t errlen)
{
    int rows, cols;
    char x;
    if (sscanf(ln->size, "%d%c%d", &rows, &x, &cols) != 3 || (x != 'x' && x != 'X'))
        return np__fail(NP_EFORMAT, err, errlen, "catalogue entry '%s': bad size '%s'", ln->name,
                        ln->size);
    char sub[256];
    int rc = np_partition_parse(out, ln->patterns, rows, cols, true, sub, sizeof sub);
    if (rc != NP_OK)
        return np__fail(NP_EFORMAT, err, errlen, "catalogue entry '%s': %s", ln->name, sub);
    snprintf(out->name, sizeof out->name, "%s", ln->name);
    return NP_OK;
}

int np_catalog_get(np_partition *out, int index)
{
    catalog_line ln;
    if (index < 0 || catalog_entry(&ln, index) != NP_OK)
        return NP_ENOTFOUND;
    return catalog_build(out, &ln, NULL, 0);
}

int np_catalog_find(np_partition *out, const char *name, char *err, size_t errlen)
{
    catalog_line ln;
    char names[256] = "";
    size_t used = 0;
    for (int i = 0; catalog_entry(&ln, i) == NP_OK; i++) {
        if (name && !strcmp(ln.name, name))
            return catalog_build(out, &ln, err, errlen);
        int n = snprintf(names + used, sizeof names - used, "%s%s", i ? ", " : "", ln.name);
        if (n > 0 && (size_t)n < sizeof names - used)
            used += (size_t)n;
    }
    return np__fail(NP_ENOTFOUND, err, errlen, "no partition named '%s' (known: %s)",
                    name ? name : "", names);
}

int np_partition_default(np_partition *out, int rows, int cols)
{
    catalog_line ln;
    for (int i = 0; catalog_entry(&ln, i) == NP_OK; i++) {
        if (!ln.is_default)
            continue;
        np_partition p;
        if (catalog_build(&p, &ln, NULL, 0) == NP_OK && p.rows == rows && p.cols == cols) {
            *out = p;
            return NP_OK;
        }
    }
    return NP_ENOTFOUND;
}

int np_partition_resolve(np_partition *out, const char *spec, int rows, int cols, bool cover,
                         char *err, size_t errlen)
{
    if (!spec)
        return np__fail(NP_EINVAL, err, errlen, "no partition given");
    /* A catalogue name never contains '/' or ','; a custom partition never contains ':'. */
    if (strchr(spec, ':') || !strpbrk(spec, ",/0123456789")) {
        np_partition p;
        int rc = np_catalog_find(&p, spec, err, errlen);
        if (rc != NP_OK)
            return rc;
        if (p.rows != rows || p.cols != cols)
            return np__fail(NP_EMISMATCH, err, errlen,
                            "partition '%s' is for a %dx%d board, not %dx%d", p.name, p.rows,
                            p.cols, rows, cols);
        *out = p;
        return NP_OK;
    }
    return np_partition_parse(out, spec, rows, cols, cover, err, errlen);
}
