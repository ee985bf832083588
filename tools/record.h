/* record.h - the result record of `npuzzle solve`: its fields, a board's id, and its text, json
 * and csv writers (solve) and readers (verify). */
#ifndef NPUZZLE_RECORD_H
#define NPUZZLE_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "npuzzle.h"

/* The forms solve writes and verify reads. */
typedef enum { RECORD_TEXT, RECORD_JSON, RECORD_CSV } record_format;

/* The fields of a record, in the order json and csv write them (their names
 * are the json keys and csv columns: "id", "size", ..., "check"). */
typedef enum {
    FIELD_ID,       /* the board's id: record_board_id() */
    FIELD_SIZE,     /* "RxC" */
    FIELD_STATUS,   /* solved, unsolvable, limit or error */
    FIELD_SOLVABLE, /* true or false */
    FIELD_LENGTH,   /* moves in the answer, -1 when none */
    FIELD_MOVES,    /* the directions the blank moves: U D L R */
    FIELD_NODES_EXPANDED,
    FIELD_NODES_GENERATED, /* the serial search's count, whatever the threads */
    FIELD_NODES_EXTRA,     /* json, when not 0: generated beyond that by a split search */
    FIELD_SECONDS,
    FIELD_H0,    /* the start board's heuristic */
    FIELD_BOUND, /* json, for status limit: the last bound searched */
    FIELD_OPT,   /* the known optimal length (opt= in the board's comment) */
    FIELD_CHECK, /* with opt: ok or mismatch */
    FIELD_COUNT
} record_field;

enum { RECORD_STATUS_NONE = -1 }; /* record.status when a record gives none */

/* One board's result. A writer prints the fields its form has; a reader fills
 * id, size, status, solvable, length, moves and opt when the record gives
 * them, and leaves the rest as record_init() set them. Strings are not owned:
 * a writer's caller keeps them alive, a reader points them into its line. */
typedef struct record {
    const char *id;
    const char *size;  /* NULL: not given */
    int status;        /* an np_status, or RECORD_STATUS_NONE */
    int solvable;      /* 1 or 0; -1: not given */
    long length;       /* -1: no moves, or not given */
    const char *moves; /* NULL: not given */
    uint64_t nodes_expanded, nodes_generated, nodes_extra;
    double seconds;
    int h0;
    int bound;         /* written for status limit */
    long opt;          /* -1: not known */
    const char *check; /* "ok" or "mismatch" when opt is known and the board has an
                        * answer (solved or unsolvable), else NULL */
    uint32_t given;    /* reading: a bit per field (its index in record.c's list) seen */
} record;

/* Set every field to "not given". */
void record_init(record *r);

/* A board's id: id=NAME from its comment, else its line number in its file
 * (every line counts, blank and comment lines too).
 * @return meta->id, or `buf` holding the number (32 bytes are enough). */
const char *record_board_id(const np_board_meta *meta, long line, char *buf, size_t len);

/* ---- writing (npuzzle solve) ---- */

typedef struct record_writer {
    FILE *out;
    record_format fmt;
    int id_width;       /* text: the id column's width; record_writer_fit_id() widens it */
    bool opt_columns;   /* csv: the opt and check columns (some board gives opt=) */
    bool mark_mismatch; /* text: status MISMATCH for a solved board whose check failed */
} record_writer;

/* A writer of `fmt` to `out`, with no opt columns and no MISMATCH marks. */
void record_writer_init(record_writer *w, FILE *out, record_format fmt);

/* Make the text id column wide enough for `id` (call for every id first). */
void record_writer_fit_id(record_writer *w, const char *id);

/* The first line: the text column heads or the csv header (json has none). */
void record_write_header(const record_writer *w);

/* One record: a text row, a json object or a csv row, each one line. */
void record_write(const record_writer *w, const record *r);

/* What the text table's last line sums up. */
typedef struct record_totals {
    size_t boards;
    int solved, unsolvable, limits;
    bool mismatch;                       /* a --check mismatch was found */
    uint64_t expanded, generated, extra; /* extra: beyond the serial count (nodes_extra) */
    size_t resumed; /* boards taken up from a checkpoint (finished or in progress) */
    double search_seconds, wall_seconds;
} record_totals;

/* The text table's last line, "total N boards: ..." (json and csv have none). */
void record_write_totals(const record_writer *w, const record_totals *t);

/* ---- reading (npuzzle verify) ---- */

#define RECORD_MAX_COLUMNS 32

/* The state of reading one output of solve, line by line. Zero it to start;
 * record_reader_free() releases it. */
typedef struct record_reader {
    bool known; /* the form is recognised (from the first line) */
    record_format fmt;
    int ncols;                         /* csv: header columns */
    char *colname[RECORD_MAX_COLUMNS]; /* csv: their names (malloc'd) */
} record_reader;

/* Read one line of solve's output (newline stripped; split in place). The
 * first line that is not blank tells the form: a json object, the csv header
 * or the text column heads.
 * @return 1 with a record in *r (its strings point into `line`); 0 for a line
 *         without one (blank, a header, the text totals); -1 when the line is
 *         malformed or not solve's output, with "field NAME: ..." in msg. */
int record_read_line(record_reader *rd, char *line, record *r, char *msg, size_t msglen);

void record_reader_free(record_reader *rd);

/* Set the field named `key` (a json key or csv column, or the text head
 * "len") from the text `val`, for any reader of key=value pairs. Only the
 * fields a reader fills are parsed; other keys are ignored, but no field may
 * be given twice (which of two answers would count?).
 * @return NULL, or msg holding "field NAME: ..." (malformed, or given twice). */
const char *record_set_field(record *r, const char *key, const char *val, char *msg, size_t msglen);

#endif
