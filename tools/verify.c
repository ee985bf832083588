/* verify.c - the `npuzzle verify` subcommand: replay move strings and check each answer, no search. */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "npuzzle.h"

void usage_verify(void)
{
    printf(
        "usage: npuzzle verify [OPTIONS] [FILE...]\n"
        "       npuzzle verify [OPTIONS] --boards FILE --results FILE\n"
        "\n"
        "Check answers independently of the search: every move is replayed on the\n"
        "board with the library's move rules, and the answer passes when each move is\n"
        "legal, the last position is the goal, the length (when given) equals the\n"
        "number of moves, and, when the optimal length opt= is known, the length\n"
        "equals it (or lies between opt and W*opt with --weight W). An answer\n"
        "'unsolvable' passes when the board is in the other parity class.\n"
        "\n"
        "Input, first form: the FILEs (or standard input): lines of the solve input\n"
        "format whose comment also holds the answer:\n"
        "    TILES... # id=NAME opt=N moves=ULDR... [length=N] [status=S]\n"
        "Second form: the boards given to `npuzzle solve` (--boards) and its output\n"
        "in any format (--results: text, json or csv, recognised by its first line),\n"
        "paired in order; each record's id must match its board's. Either may be '-'\n"
        "for standard input.\n"
        "\n"
        "options:\n"
        "      --boards FILE    the boards that were solved\n"
        "      --results FILE   what `npuzzle solve --format text|json|csv` printed\n"
        "      --size RxC       board size (needed for non-square boards)\n"
        "      --goal G         blank-first (default) or blank-last\n"
        "  -w, --weight W       accept lengths up to W times opt= (weighted search)\n"
        "  -q, --quiet          print only the answers that fail, and the summary\n"
        "  -h, --help           this text\n"
        "\n"
        "Output: one line per board, FILE:LINE: id NAME: ok or the problem, then a\n"
        "summary line.\n"
        "\n"
        "exit codes: 0 every answer is right, 1 an answer is wrong or missing (a limit\n"
        "was reached), 2 bad usage or malformed input (FILE:LINE: field ...), 3 a file\n"
        "cannot be read.\n");
}

/* ---- answers ------------------------------------------------------------ */

enum { ST_NONE = -1 }; /* no status given; otherwise an np_status */

/* One answer to check. Strings point into the reader's line buffer. */
typedef struct answer {
    const char *id;     /* NULL: not given */
    const char *size;   /* NULL: not given */
    int status;         /* np_status or ST_NONE */
    long length;        /* -1: not given */
    long opt;           /* -1: not given */
    int solvable;       /* -1: not given, else 0/1 */
    const char *moves;  /* NULL: not given */
} answer;

static void answer_init(answer *a)
{
    a->id = a->size = a->moves = NULL;
    a->status = ST_NONE;
    a->length = a->opt = -1;
    a->solvable = -1;
}

/* A line source: a stream, its name, a line counter and a growing buffer. */
typedef struct reader {
    FILE *f;
    const char *name;
    long lineno;
    char *line;
    size_t cap;
    bool owned;     /* fclose at the end */
} reader;

/* Read the next line into r->line (newline stripped). @return 1, 0 at the end,
 * -1 on a read error. *nul is set when the line holds a NUL byte. */
static int reader_next(reader *r, bool *nul)
{
    *nul = false;
    errno = 0;
    ssize_t len = getline(&r->line, &r->cap, r->f);
    if (len < 0)
        return ferror(r->f) ? -1 : 0;
    r->lineno++;
    if ((size_t)len != strlen(r->line))
        *nul = true;
    while (len > 0 && (r->line[len - 1] == '\n' || r->line[len - 1] == '\r'))
        r->line[--len] = 0;
    return 1;
}

static int reader_open(reader *r, const char *name)
{
    memset(r, 0, sizeof *r);
    r->name = name;
    if (!strcmp(name, "-")) {
        r->f = stdin;
        r->name = "<stdin>";
        return 0;
    }
    r->f = fopen(name, "r");
    if (!r->f) {
        fprintf(stderr, "npuzzle verify: cannot open %s: %s\n", name, strerror(errno));
        return -1;
    }
    r->owned = true;
    return 0;
}

static void reader_close(reader *r)
{
    if (r->owned && r->f)
        fclose(r->f);
    free(r->line);
    r->line = NULL;
}

/* Parse a whole decimal number 0..10^9. @return false when `s` is not one. */
static bool parse_count(const char *s, long *out)
{
    if (!s || !isdigit((unsigned char)*s))
        return false;
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (*end || errno || v > 1000000000L)
        return false;
    *out = v;
    return true;
}

static int parse_status(const char *s)
{
    if (!strcmp(s, "solved") || !strcmp(s, "MISMATCH")) /* text output marks a --check mismatch */
        return NP_STATUS_SOLVED;
    if (!strcmp(s, "unsolvable"))
        return NP_STATUS_UNSOLVABLE;
    if (!strcmp(s, "limit"))
        return NP_STATUS_LIMIT;
    if (!strcmp(s, "error"))
        return NP_STATUS_ERROR;
    return ST_NONE;
}

/* ---- input errors (exit 2) ------------------------------------------------ */

typedef struct tally {
    long boards, ok, wrong, bad_input;
    bool io_error;
} tally;

#if defined(__GNUC__)
__attribute__((format(printf, 4, 5)))
#endif
static void input_error(tally *t, const char *file, long line, const char *fmt, ...)
{
    if (t->bad_input++ < 20) {
        va_list ap;
        va_start(ap, fmt);
        fprintf(stderr, "%s:%ld: ", file, line);
        vfprintf(stderr, fmt, ap);
        fputc('\n', stderr);
        va_end(ap);
    }
}

/* Take one value of a key: "length", "opt", ... into `a`. The value is a NUL-
 * terminated string (json strings already decoded); unknown keys are ignored.
 * @return NULL or the name of the field that is malformed. */
static const char *answer_set(answer *a, const char *key, const char *val)
{
    if (!strcmp(key, "id")) {
        a->id = val;
    } else if (!strcmp(key, "size")) {
        a->size = val;
    } else if (!strcmp(key, "status")) {
        if ((a->status = parse_status(val)) == ST_NONE)
            return "status";
    } else if (!strcmp(key, "length") || !strcmp(key, "len")) {
        if (!strcmp(val, "-1") || !strcmp(val, "-") || !*val)
            a->length = -1;
        else if (!parse_count(val, &a->length))
            return "length";
    } else if (!strcmp(key, "opt")) {
        if (!strcmp(val, "-") || !*val || !strcmp(val, "null"))
            a->opt = -1;
        else if (!parse_count(val, &a->opt))
            return "opt";
    } else if (!strcmp(key, "solvable")) {
        if (!strcmp(val, "true"))
            a->solvable = 1;
        else if (!strcmp(val, "false"))
            a->solvable = 0;
        else
            return "solvable";
    } else if (!strcmp(key, "moves")) {
        a->moves = val;
    }
    return NULL;
}

/* ---- the check itself ------------------------------------------------------ */

typedef struct vopts {
    int rows, cols;
    np_goal goal;
    double weight;
    bool quiet;
} vopts;

/* Print the outcome of one board: `where` names file and line. */
#if defined(__GNUC__)
__attribute__((format(printf, 4, 5)))
#endif
static void report(tally *t, const vopts *o, bool ok, const char *fmt, ...)
{
    if (ok)
        t->ok++;
    else
        t->wrong++;
    if (ok && o->quiet)
        return;
    va_list ap;
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    putchar('\n');
}

/* Check one answer against its board. `where` is "FILE:LINE" (and the results'
 * FILE:LINE in the paired form), `id` the board's id. */
static void check_answer(tally *t, const vopts *o, const char *where, const char *id,
                         const np_board *start, const np_board_meta *meta, const answer *a)
{
    np_geom g;
    t->boards++;
    if (np_geom_init(&g, start->rows, start->cols, o->goal) != NP_OK) {
        report(t, o, false, "%s: id %s: WRONG: unsupported board size %dx%d", where, id, start->rows,
               start->cols);
        return;
    }
    char size[16];
    snprintf(size, sizeof size, "%dx%d", start->rows, start->cols);
    if (a->size && strcmp(a->size, size) != 0) {
        report(t, o, false, "%s: id %s: WRONG: the answer is for size %s, the board is %s", where, id,
               a->size, size);
        return;
    }
    bool solvable = np_board_solvable(start, &g);
    if (a->solvable >= 0 && a->solvable != (int)solvable) {
        report(t, o, false, "%s: id %s: WRONG: says solvable=%s, but the board is %s (%s goal)", where,
               id, a->solvable ? "true" : "false", solvable ? "solvable" : "unsolvable",
               np_goal_name(o->goal));
        return;
    }
    long opt = meta->opt >= 0 ? meta->opt : a->opt;
    if (meta->opt >= 0 && a->opt >= 0 && meta->opt != a->opt) {
        report(t, o, false, "%s: id %s: WRONG: the answer says opt=%ld, the board says opt=%d", where,
               id, a->opt, meta->opt);
        return;
    }
    int status = a->status;
    if (status == ST_NONE)
        status = NP_STATUS_SOLVED;
    if (status == NP_STATUS_UNSOLVABLE) {
        if (solvable)
            report(t, o, false, "%s: id %s: WRONG: answered unsolvable, but the board is solvable "
                                "(permutation parity, %s goal)", where, id, np_goal_name(o->goal));
        else if (a->moves && *a->moves)
            report(t, o, false, "%s: id %s: WRONG: answered unsolvable, yet gives moves", where, id);
        else
            report(t, o, true, "%s: id %s: ok, unsolvable", where, id);
        return;
    }
    if (status != NP_STATUS_SOLVED) {
        report(t, o, false, "%s: id %s: NO ANSWER: status %s", where, id,
               np_status_name((np_status)status));
        return;
    }
    if (!solvable) {
        report(t, o, false, "%s: id %s: WRONG: answered with moves, but the board is unsolvable "
                            "(permutation parity, %s goal)", where, id, np_goal_name(o->goal));
        return;
    }
    const char *moves = a->moves ? a->moves : "";
    long nmoves = 0;
    for (const char *p = moves; *p; p++)
        if (!isspace((unsigned char)*p) && *p != ',')
            nmoves++;
    np_board b = *start;
    size_t bad = 0;
    if (np_board_apply_moves(&b, &g, moves, &bad) != NP_OK) {
        long k = 0;
        for (size_t i = 0; i < bad; i++)
            if (!isspace((unsigned char)moves[i]) && moves[i] != ',')
                k++;
        unsigned char ch = (unsigned char)moves[bad];
        if (np_dir_from_char((char)ch) < 0)
            report(t, o, false, "%s: id %s: WRONG: move %ld is '%c', not a direction (U, L, R, D)",
                   where, id, k + 1, isprint(ch) ? ch : '?');
        else
            report(t, o, false, "%s: id %s: WRONG: move %ld (%c) is illegal: the blank is at row %d, "
                                "column %d of %d x %d", where, id, k + 1, ch, b.blank / g.cols + 1,
                   b.blank % g.cols + 1, g.rows, g.cols);
        return;
    }
    if (!np_board_is_goal(&b, &g)) {
        char buf[NP_MAX_CELLS * 4];
        np_board_format(buf, sizeof buf, &b);
        report(t, o, false, "%s: id %s: WRONG: the %ld moves end at %s, not the %s goal", where, id,
               nmoves, buf, np_goal_name(o->goal));
        return;
    }
    if (a->length >= 0 && a->length != nmoves) {
        report(t, o, false, "%s: id %s: WRONG: length %ld, but the moves are %ld", where, id, a->length,
               nmoves);
        return;
    }
    if (opt >= 0) {
        if (nmoves < opt) {
            report(t, o, false, "%s: id %s: WRONG: %ld moves reach the goal, fewer than opt=%ld "
                                "(is opt= wrong?)", where, id, nmoves, opt);
            return;
        }
        if (o->weight > 1.0 ? (double)nmoves > o->weight * (double)opt : nmoves != opt) {
            if (o->weight > 1.0)
                report(t, o, false, "%s: id %s: WRONG: length %ld is more than %g x opt=%ld", where, id,
                       nmoves, o->weight, opt);
            else
                report(t, o, false, "%s: id %s: WRONG: length %ld, but opt=%ld", where, id, nmoves, opt);
            return;
        }
        report(t, o, true, "%s: id %s: ok, %ld moves (opt %ld)", where, id, nmoves, opt);
        return;
    }
    report(t, o, true, "%s: id %s: ok, %ld moves", where, id, nmoves);
}

static const char *board_id(const np_board_meta *meta, long line, char *buf, size_t len)
{
    if (meta->id[0])
        return meta->id;
    snprintf(buf, len, "%ld", line);
    return buf;
}

/* ---- first form: boards whose comment holds the answer -------------------- */

/* Find the answer's key=value words in the comment of `line` (split on spaces and
 * commas, as the board parser does). Modifies the comment in place. */
static const char *answer_from_comment(answer *a, char *line)
{
    answer_init(a);
    char *s = strchr(line, '#');
    if (!s)
        return NULL;
    s++;
    while (*s) {
        while (*s && (isspace((unsigned char)*s) || *s == ','))
            s++;
        char *w = s;
        while (*s && !isspace((unsigned char)*s) && *s != ',')
            s++;
        if (*s)
            *s++ = 0;
        char *eq = strchr(w, '=');
        if (!eq || eq == w)
            continue;
        *eq = 0;
        const char *bad = NULL;
        if (!strcmp(w, "moves") || !strcmp(w, "length") || !strcmp(w, "status") ||
            !strcmp(w, "solvable"))
            bad = answer_set(a, w, eq + 1);
        *eq = '=';
        if (bad)
            return bad;
    }
    return NULL;
}

static int verify_annotated(tally *t, const vopts *o, const char *name)
{
    reader r;
    if (reader_open(&r, name) != 0) {
        t->io_error = true;
        return 0;
    }
    int rc;
    bool nul;
    while ((rc = reader_next(&r, &nul)) == 1) {
        if (nul) {
            input_error(t, r.name, r.lineno, "field 1: the line holds a NUL byte (binary input?)");
            continue;
        }
        np_board b;
        np_board_meta meta;
        char err[256];
        int prc = np_board_parse(&b, &meta, r.line, o->rows, o->cols, err, sizeof err);
        if (prc == 0)
            continue;
        if (prc < 0) {
            input_error(t, r.name, r.lineno, "%s", err);
            continue;
        }
        answer a;
        const char *badfield = answer_from_comment(&a, r.line);
        if (badfield) {
            input_error(t, r.name, r.lineno, "field %s: malformed value", badfield);
            continue;
        }
        if (!a.moves && a.status == ST_NONE) {
            input_error(t, r.name, r.lineno, "field moves: missing (write the answer as moves=ULDR... "
                                             "in the comment)");
            continue;
        }
        char where[512], idbuf[32];
        snprintf(where, sizeof where, "%s:%ld", r.name, r.lineno);
        check_answer(t, o, where, board_id(&meta, r.lineno, idbuf, sizeof idbuf), &b, &meta, &a);
    }
    if (rc < 0) {
        fprintf(stderr, "npuzzle verify: %s: read error: %s\n", r.name, strerror(errno));
        t->io_error = true;
    }
    reader_close(&r);
    return 0;
}

/* ---- second form: boards paired with solve's output ------------------------ */

typedef enum { RES_UNKNOWN, RES_JSON, RES_CSV, RES_TEXT } res_format;

#define MAX_COLS 32

typedef struct results {
    reader r;
    res_format fmt;
    int ncols;
    char *colname[MAX_COLS]; /* csv header names (malloc'd) */
} results;

/* Decode a flat json object in place, handing each key and value to answer_set.
 * @return NULL, or a message naming what is malformed (static or in msg). */
static const char *json_record(answer *a, char *s, char *msg, size_t msglen)
{
    char *p = s;
    while (isspace((unsigned char)*p))
        p++;
    if (*p++ != '{')
        return "field 1: not a json object";
    for (;;) {
        while (isspace((unsigned char)*p))
            p++;
        if (*p == '}')
            break;
        if (*p != '"')
            return "a json key is not a string";
        /* key: no escapes expected, but decode them the same way as values */
        char *strs[2];
        char next = 0;
        for (int part = 0; part < 2; part++) {
            while (isspace((unsigned char)*p))
                p++;
            if (*p == '"') {
                char *w = ++p, *start = w;
                for (;;) {
                    if (!*p)
                        return "a json string is not closed";
                    if (*p == '"')
                        break;
                    if (*p == '\\') {
                        p++;
                        switch (*p) {
                        case '"': case '\\': case '/': *w++ = *p++; break;
                        case 'n': *w++ = '\n'; p++; break;
                        case 't': *w++ = '\t'; p++; break;
                        case 'r': *w++ = '\r'; p++; break;
                        case 'b': *w++ = '\b'; p++; break;
                        case 'f': *w++ = '\f'; p++; break;
                        case 'u': {
                            unsigned v = 0;
                            for (int i = 1; i <= 4; i++) {
                                int c = (unsigned char)p[i], d = isdigit(c) ? c - '0'
                                                                : isxdigit(c) ? (tolower(c) - 'a' + 10) : -1;
                                if (d < 0)
                                    return "a json \\u escape is malformed";
                                v = v * 16 + (unsigned)d;
                            }
                            p += 5;
                            /* ids are ours: only the control characters come escaped */
                            *w++ = v < 0x80 && v ? (char)v : '?';
                            break;
                        }
                        default: return "a json string has a bad escape";
                        }
                        continue;
                    }
                    *w++ = *p++;
                }
                p++;
                *w = 0;
                strs[part] = start;
                while (isspace((unsigned char)*p))
                    p++;
                next = *p;
            } else {
                if (part == 0)
                    return "a json key is not a string";
                char *start = p;
                while (*p && *p != ',' && *p != '}' && !isspace((unsigned char)*p))
                    p++;
                char *end = p;
                while (isspace((unsigned char)*p))
                    p++;
                next = *p;
                *end = 0;
                if (end == start)
                    return "a json value is missing";
                strs[part] = start;
            }
            if (part == 0) {
                if (next != ':')
                    return "a json key is not followed by ':'";
                p++;
            }
        }
        const char *bad = answer_set(a, strs[0], strs[1]);
        if (bad) {
            snprintf(msg, msglen, "field %s: '%.40s' is malformed", bad, strs[1]);
            return msg;
        }
        if (next == '}')
            break;
        if (next != ',')
            return "json values must be separated by ','";
        p++;
    }
    return NULL;
}

/* Split a csv line in place into at most MAX_COLS fields ("" quotes doubled).
 * @return the number of fields, or -1 when a quote is not closed. */
static int csv_split(char *s, char **f)
{
    int n = 0;
    for (;;) {
        if (n == MAX_COLS)
            return n;
        char *w = s;
        f[n++] = w;
        if (*s == '"') {
            s++;
            for (;;) {
                if (!*s)
                    return -1;
                if (*s == '"') {
                    if (s[1] == '"') {
                        *w++ = '"';
                        s += 2;
                        continue;
                    }
                    s++;
                    break;
                }
                *w++ = *s++;
            }
            if (*s && *s != ',')
                return -1;
        } else {
            while (*s && *s != ',')
                *w++ = *s++;
        }
        char end = *s;
        *w = 0;
        if (!end)
            return n;
        s++;
    }
}

/* Read the next answer. @return 1, 0 at the end, -1 input error (reported and
 * counted; the record is consumed), -2 read error. */
static int results_next(results *rs, tally *t, answer *a)
{
    reader *r = &rs->r;
    bool nul;
    int rc;
    while ((rc = reader_next(r, &nul)) == 1) {
        if (nul) {
            input_error(t, r->name, r->lineno, "field 1: the line holds a NUL byte (binary input?)");
            return -1;
        }
        char *s = r->line;
        while (isspace((unsigned char)*s))
            s++;
        if (!*s)
            continue;
        if (rs->fmt == RES_UNKNOWN) {
            if (*s == '{') {
                rs->fmt = RES_JSON;
            } else if (!strncmp(s, "id,", 3)) {
                char *f[MAX_COLS];
                int n = csv_split(s, f);
                if (n < 0) {
                    input_error(t, r->name, r->lineno, "field header: a quote is not closed");
                    return -1;
                }
                rs->fmt = RES_CSV;
                rs->ncols = n;
                for (int i = 0; i < n; i++)
                    rs->colname[i] = strdup(f[i]);
                continue;
            } else if (!strncmp(s, "id", 2) && isspace((unsigned char)s[2]) && strstr(s, "status")) {
                rs->fmt = RES_TEXT;
                continue;
            } else {
                input_error(t, r->name, r->lineno, "field 1: not solve's output (text, json or csv)");
                return -1;
            }
        }
        answer_init(a);
        if (rs->fmt == RES_JSON) {
            char msg[128];
            const char *bad = json_record(a, s, msg, sizeof msg);
            if (bad) {
                input_error(t, r->name, r->lineno, "%s", bad);
                return -1;
            }
        } else if (rs->fmt == RES_CSV) {
            char *f[MAX_COLS];
            int n = csv_split(s, f);
            if (n < 0) {
                input_error(t, r->name, r->lineno, "a quote is not closed");
                return -1;
            }
            if (n != rs->ncols) {
                input_error(t, r->name, r->lineno, "field count: %d fields, the header has %d", n,
                            rs->ncols);
                return -1;
            }
            for (int i = 0; i < n; i++) {
                if (!rs->colname[i])
                    continue;
                const char *bad = answer_set(a, rs->colname[i], f[i]);
                if (bad) {
                    input_error(t, r->name, r->lineno, "field %s: '%.40s' is malformed", bad, f[i]);
                    return -1;
                }
            }
        } else {
            /* text: id size status len opt h0 expanded generated seconds [moves]; then a total line */
            char *f[12];
            int n = 0;
            for (char *q = s; *q && n < 12;) {
                f[n++] = q;
                while (*q && !isspace((unsigned char)*q))
                    q++;
                if (*q)
                    *q++ = 0;
                while (isspace((unsigned char)*q))
                    q++;
            }
            if (n >= 3 && !strcmp(f[0], "total") && !strcmp(f[2], "boards:"))
                continue;
            if (n < 9) {
                input_error(t, r->name, r->lineno, "field count: %d columns, solve's text has 9 or 10",
                            n);
                return -1;
            }
            static const char *const keys[] = {"id", "size", "status", "length", "opt"};
            for (int i = 0; i < 5; i++) {
                const char *bad = answer_set(a, keys[i], f[i]);
                if (bad) {
                    input_error(t, r->name, r->lineno, "field %s: '%.40s' is malformed", bad, f[i]);
                    return -1;
                }
            }
            a->moves = n > 9 ? f[9] : "";
        }
        if (!a->id) {
            input_error(t, r->name, r->lineno, "field id: missing");
            return -1;
        }
        if (a->status == ST_NONE) {
            input_error(t, r->name, r->lineno, "field status: missing");
            return -1;
        }
        if (a->status == NP_STATUS_SOLVED && !a->moves) {
            input_error(t, r->name, r->lineno, "field moves: missing");
            return -1;
        }
        return 1;
    }
    return rc < 0 ? -2 : 0;
}

static int verify_paired(tally *t, const vopts *o, const char *bname, const char *rname)
{
    reader br;
    results rs;
    memset(&rs, 0, sizeof rs);
    if (reader_open(&br, bname) != 0) {
        t->io_error = true;
        return 0;
    }
    if (reader_open(&rs.r, rname) != 0) {
        reader_close(&br);
        t->io_error = true;
        return 0;
    }
    long nboards = 0, nresults = 0;
    bool nul, results_done = false;
    int rc;
    while ((rc = reader_next(&br, &nul)) == 1) {
        if (nul) {
            input_error(t, br.name, br.lineno, "field 1: the line holds a NUL byte (binary input?)");
            continue;
        }
        np_board b;
        np_board_meta meta;
        char err[256];
        int prc = np_board_parse(&b, &meta, br.line, o->rows, o->cols, err, sizeof err);
        if (prc == 0)
            continue;
        if (prc < 0) {
            input_error(t, br.name, br.lineno, "%s", err);
            continue;
        }
        nboards++;
        if (results_done)
            continue;
        answer a;
        int rrc = results_next(&rs, t, &a);
        if (rrc == 0 || rrc == -2) {
            results_done = true;
            if (rrc == -2) {
                fprintf(stderr, "npuzzle verify: %s: read error: %s\n", rs.r.name, strerror(errno));
                t->io_error = true;
            }
            continue;
        }
        nresults++;
        if (rrc < 0)
            continue;
        char idbuf[32];
        const char *id = board_id(&meta, br.lineno, idbuf, sizeof idbuf);
        if (strcmp(id, a.id) != 0) {
            input_error(t, rs.r.name, rs.r.lineno,
                        "field id: '%.40s' does not match the board it pairs with, %s:%ld (id %s)", a.id,
                        br.name, br.lineno, id);
            continue;
        }
        char where[512];
        snprintf(where, sizeof where, "%s:%ld (%s:%ld)", br.name, br.lineno, rs.r.name, rs.r.lineno);
        check_answer(t, o, where, id, &b, &meta, &a);
    }
    if (rc < 0) {
        fprintf(stderr, "npuzzle verify: %s: read error: %s\n", br.name, strerror(errno));
        t->io_error = true;
    }
    if (!results_done && !t->io_error) {
        answer a;
        int rrc;
        while ((rrc = results_next(&rs, t, &a)) != 0 && rrc != -2)
            nresults++;
    }
    if (nboards != nresults && !t->io_error)
        input_error(t, rs.r.name, rs.r.lineno, "field count: %ld answers for the %ld boards of %s",
                    nresults, nboards, br.name);
    for (int i = 0; i < rs.ncols; i++)
        free(rs.colname[i]);
    reader_close(&rs.r);
    reader_close(&br);
    return 0;
}

int cmd_verify(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"boards", required_argument, NULL, 'B'},
        {"results", required_argument, NULL, 'R'},
        {"size", required_argument, NULL, 's'},
        {"goal", required_argument, NULL, 'g'},
        {"weight", required_argument, NULL, 'w'},
        {"quiet", no_argument, NULL, 'q'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    vopts o = {0, 0, NP_GOAL_BLANK_FIRST, 1.0, false};
    const char *boards = NULL, *results_file = NULL;
    int c;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":w:qh", longopts, NULL)) != -1) {
        switch (c) {
        case 'B': boards = optarg; break;
        case 'R': results_file = optarg; break;
        case 's':
            if (!cli_parse_size(optarg, &o.rows, &o.cols)) {
                fprintf(stderr, "npuzzle verify: bad --size '%s' (RxC, each side %d..%d)\n", optarg,
                        NP_MIN_SIDE, NP_MAX_SIDE);
                return EXIT_USAGE;
            }
            break;
        case 'g':
            if (np_goal_parse(&o.goal, optarg) != NP_OK) {
                fprintf(stderr, "npuzzle verify: unknown goal '%s' (blank-first or blank-last)\n", optarg);
                return EXIT_USAGE;
            }
            break;
        case 'w':
            if (!cli_parse_double("verify", "--weight", optarg, &o.weight))
                return EXIT_USAGE;
            if (o.weight < 1.0 || o.weight > 100.0) {
                fprintf(stderr, "npuzzle verify: --weight must be between 1 and 100, not '%s'\n", optarg);
                return EXIT_USAGE;
            }
            break;
        case 'q': o.quiet = true; break;
        case 'h': usage_verify(); return EXIT_OK;
        case ':':
            fprintf(stderr, "npuzzle verify: option '%s' needs a value (see npuzzle help verify)\n",
                    argv[optind - 1]);
            return EXIT_USAGE;
        default:
            fprintf(stderr, "npuzzle verify: unknown option '%s' (see npuzzle help verify)\n",
                    argv[optind - 1]);
            return EXIT_USAGE;
        }
    }
    if ((boards != NULL) != (results_file != NULL)) {
        fprintf(stderr, "npuzzle verify: --boards and --results go together\n");
        return EXIT_USAGE;
    }
    if (boards && optind < argc) {
        fprintf(stderr, "npuzzle verify: with --boards and --results, no other FILE ('%s')\n",
                argv[optind]);
        return EXIT_USAGE;
    }
    if (boards && !strcmp(boards, "-") && !strcmp(results_file, "-")) {
        fprintf(stderr, "npuzzle verify: --boards and --results cannot both be standard input\n");
        return EXIT_USAGE;
    }

    tally t = {0};
    if (boards)
        verify_paired(&t, &o, boards, results_file);
    else if (optind >= argc)
        verify_annotated(&t, &o, "-");
    else
        for (int i = optind; i < argc; i++)
            verify_annotated(&t, &o, argv[i]);

    if (t.bad_input > 20)
        fprintf(stderr, "... and %ld more malformed lines\n", t.bad_input - 20);
    printf("verify: %ld boards: %ld ok, %ld wrong", t.boards, t.ok, t.wrong);
    if (t.bad_input)
        printf(", %ld malformed input line%s", t.bad_input, t.bad_input == 1 ? "" : "s");
    putchar('\n');
    fflush(stdout);
    if (t.io_error)
        return EXIT_PDB;
    if (t.bad_input)
        return EXIT_USAGE;
    return t.wrong ? EXIT_FAIL : EXIT_OK;
}
