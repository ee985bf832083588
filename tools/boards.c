/* boards.c - reading boards, one a line, for solve and verify; malformed lines as FILE:LINE. */
#include "boards.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

void boards_error(boards_errors *e, const char *file, long line, const char *fmt, ...)
{
    if (e->count++ >= BOARDS_MAX_MESSAGES)
        return;
    /* One write for the whole message when it fits (standard error is unbuffered). */
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (n >= 0 && (size_t)n < sizeof msg) {
        fprintf(stderr, "%s:%ld: %s\n", file, line, msg);
        return;
    }
    fprintf(stderr, "%s:%ld: ", file, line);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

void boards_errors_tail(const boards_errors *e)
{
    if (e->count > BOARDS_MAX_MESSAGES)
        fprintf(stderr, "... and %ld more malformed lines\n", e->count - BOARDS_MAX_MESSAGES);
}

int boards_open(boards_reader *r, const char *path, const char *cmd)
{
    memset(r, 0, sizeof *r);
    r->name = path;
    r->cmd = cmd;
    if (!strcmp(path, "-")) {
        r->f = stdin;
        r->name = "<stdin>";
        return 0;
    }
    r->f = fopen(path, "r");
    if (!r->f) {
        fprintf(stderr, "npuzzle %s: cannot open %s: %s\n", cmd, path, strerror(errno));
        return -1;
    }
    r->owned = true;
    return 0;
}

void boards_close(boards_reader *r)
{
    if (r->owned && r->f)
        fclose(r->f);
    r->f = NULL;
    free(r->line);
    r->line = NULL;
    r->cap = 0;
}

int boards_next_line(boards_reader *r, boards_errors *e)
{
    errno = 0;
    ssize_t len = getline(&r->line, &r->cap, r->f);
    if (len < 0) {
        if (!ferror(r->f))
            return 0;
        r->read_errno = errno;
        return -1;
    }
    r->lineno++;
    /* A UTF-8 byte order mark, which some editors put first: not text. */
    if (r->lineno == 1 && len >= 3 && !memcmp(r->line, "\xef\xbb\xbf", 3)) {
        memmove(r->line, r->line + 3, (size_t)len - 2); /* with the NUL */
        len -= 3;
    }
    const size_t nul = strlen(r->line);
    if ((size_t)len != nul) {
        /* where the first NUL byte is: in solve's output its column; on a
         * board line the comment, or the tile's field it falls in (or starts) */
        if (r->results) {
            boards_error(e, r->name, r->lineno,
                         "column %zu: the line holds a NUL byte (binary input?)", nul + 1);
            return 2;
        }
        if (memchr(r->line, '#', nul)) {
            boards_error(e, r->name, r->lineno,
                         "field comment: the line holds a NUL byte (binary input?)");
            return 2;
        }
        int field = 0;
        bool in = false;
        for (size_t i = 0; i < nul; i++) {
            const bool sep = strchr(" \t\r\n,", r->line[i]) != NULL; /* as np_board_parse */
            field += !sep && !in;
            in = !sep;
        }
        boards_error(e, r->name, r->lineno, "field %d: the line holds a NUL byte (binary input?)",
                     field + !in);
        return 2;
    }
    while (len > 0 && (r->line[len - 1] == '\n' || r->line[len - 1] == '\r'))
        r->line[--len] = 0;
    /* A carriage return left inside: lines that end in CR alone (classic Mac
     * OS), which would read as one line, its first comment hiding the rest. */
    const char *cr = memchr(r->line, '\r', (size_t)len);
    if (cr) {
        boards_error(e, r->name, r->lineno,
                     "column %zu: a carriage return inside the line (lines that end in CR "
                     "alone? end them in LF, e.g. tr '\\r' '\\n')",
                     (size_t)(cr - r->line) + 1);
        return 2;
    }
    return 1;
}

/* Whether a line of comment alone holds a word starting with size=. */
static bool comment_says_size(const char *line)
{
    const char *c = strchr(line, '#');
    for (const char *w = c ? strstr(c, "size=") : NULL; w; w = strstr(w + 5, "size="))
        if (w == c + 1 || strchr(" \t,", w[-1]))
            return true;
    return false;
}

int boards_next(boards_reader *r, int rows, int cols, np_board *b, np_board_meta *meta,
                boards_errors *e)
{
    int rc;
    while ((rc = boards_next_line(r, e)) != 0) {
        if (rc < 0)
            return -1;
        if (rc == 2)
            continue;
        char err[256];
        int prc = np_board_parse(b, meta, r->line, rows, cols, err, sizeof err);
        if (prc > 0)
            return 1;
        if (prc == 0 && !r->size_noted && comment_says_size(r->line)) {
            /* a header's size= would be an easy trap: it sizes no board */
            r->size_noted = true;
            fprintf(stderr,
                    "npuzzle %s: note: %s:%ld: a size= on a line of comment alone sizes no "
                    "board (give it on each board's line, or --size)\n",
                    r->cmd, r->name, r->lineno);
        }
        if (prc < 0)
            boards_error(e, r->name, r->lineno, "%s", err);
    }
    return 0;
}

void boards_read_error(const boards_reader *r, const char *cmd)
{
    fprintf(stderr, "npuzzle %s: %s: read error: %s\n", cmd, r->name, strerror(r->read_errno));
}
