/* boards.h - reading boards, one a line, for solve and verify; malformed lines told as FILE:LINE.
 * The first 20 messages are printed, the rest only counted. */
#ifndef NPUZZLE_BOARDS_H
#define NPUZZLE_BOARDS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "npuzzle.h"

/* How many malformed lines are reported; the others are only counted. */
enum { BOARDS_MAX_MESSAGES = 20 };

/* The malformed lines of a run, across its files (the caller owns it; zero it
 * before the first). */
typedef struct boards_errors {
    long count;
} boards_errors;

/* Count one malformed line, and print "FILE:LINE: MESSAGE" on standard error
 * while fewer than BOARDS_MAX_MESSAGES were counted before it. */
/* clang-format off */
#if defined(__GNUC__)
__attribute__((format(printf, 4, 5)))
#endif
void boards_error(boards_errors *e, const char *file, long line, const char *fmt, ...);
/* clang-format on */

/* Print "... and N more malformed lines" on standard error when more lines
 * were counted than reported; nothing otherwise. */
void boards_errors_tail(const boards_errors *e);

/* A line source: a stream, its name in messages, its line count, and one
 * line buffer that grows as needed and is reused for every line. */
typedef struct boards_reader {
    FILE *f;
    const char *name; /* the path as given, or "<stdin>": not owned, outlives the reader */
    const char *cmd;  /* the subcommand whose messages these are ("solve"): a literal */
    long lineno;      /* the last line read, counting from 1 */
    char *line;       /* that line, its newline (and \r) stripped */
    size_t cap;
    int read_errno;  /* errno of the last read error */
    bool owned;      /* fclose at the end */
    bool results;    /* lines of solve's output, not boards: a NUL byte is named by its
                     * column, not by a tile's field (boards_next_line) */
    bool size_noted; /* a size= on a line of comment alone was noted (once a file) */
} boards_reader;

/* Open `path` ("-": standard input) for reading. On failure prints "npuzzle
 * CMD: cannot open PATH: REASON" and returns -1 (nothing to close); 0 otherwise. */
int boards_open(boards_reader *r, const char *path, const char *cmd);

/* Close the stream (unless it is standard input) and free the line buffer. */
void boards_close(boards_reader *r);

/* Read the next line into r->line. A line holding a NUL byte is reported
 * ("field 1: the line holds a NUL byte (binary input?)") and counted in *e.
 * @return 1 a line, 2 a line with a NUL byte (reported; not to be parsed),
 *         0 at the end, -1 a read error (boards_read_error() says it). */
int boards_next_line(boards_reader *r, boards_errors *e);

/* Read up to the next board: blank and comment-only lines are skipped, each
 * malformed one (NUL byte, or np_board_parse()'s message) is reported as
 * FILE:LINE, counted in *e and skipped. rows, cols: the board size, 0 to take
 * it from the count. On 1, r->line and r->lineno are the board's line.
 * @return 1 a board in *b and *meta, 0 at the end, -1 a read error. */
int boards_next(boards_reader *r, int rows, int cols, np_board *b, np_board_meta *meta,
                boards_errors *e);

/* Print "npuzzle CMD: NAME: read error: REASON" on standard error. */
void boards_read_error(const boards_reader *r, const char *cmd);

#endif
