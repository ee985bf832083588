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
    if ((size_t)len != strlen(r->line)) {
        boards_error(e, r->name, r->lineno, "field 1: the line holds a NUL byte (binary input?)");
        return 2;
    }
    while (len > 0 && (r->line[len - 1] == '\n' || r->line[len - 1] == '\r'))
        r->line[--len] = 0;
    return 1;
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
        if (prc < 0)
            boards_error(e, r->name, r->lineno, "%s", err);
    }
    return 0;
}

void boards_read_error(const boards_reader *r, const char *cmd)
{
    fprintf(stderr, "npuzzle %s: %s: read error: %s\n", cmd, r->name, strerror(r->read_errno));
}
