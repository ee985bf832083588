/* record.c - the result record of `npuzzle solve`: its fields, a board's id, and its text, json
 * and csv writers (solve) and readers (verify). */
#include "record.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* ---- the schema ------------------------------------------------------------ */

static const struct {
    const char *name; /* json key, csv column */
    bool string;      /* json quotes it */
} fields[FIELD_COUNT] = {
    [FIELD_ID] = {"id", true},
    [FIELD_SIZE] = {"size", true},
    [FIELD_STATUS] = {"status", true},
    [FIELD_SOLVABLE] = {"solvable", false},
    [FIELD_LENGTH] = {"length", false},
    [FIELD_MOVES] = {"moves", true},
    [FIELD_NODES_EXPANDED] = {"nodes_expanded", false},
    [FIELD_NODES_GENERATED] = {"nodes_generated", false},
    [FIELD_NODES_EXTRA] = {"nodes_extra", false},
    [FIELD_SECONDS] = {"seconds", false},
    [FIELD_H0] = {"h0", false},
    [FIELD_BOUND] = {"bound", false},
    [FIELD_OPT] = {"opt", false},
    [FIELD_CHECK] = {"check", true},
};

/* The text table: these columns (width < 0: left-aligned; the id column's
 * width is the writer's), two spaces, then the moves and, for status limit,
 * "(stopped at bound N)". The last line starts with TEXT_TOTAL. */
static const struct {
    const char *head;
    record_field field;
    int width;
} text_columns[] = {
    {"id", FIELD_ID, 0},
    {"size", FIELD_SIZE, -5},
    {"status", FIELD_STATUS, -10},
    {"len", FIELD_LENGTH, 4},
    {"opt", FIELD_OPT, 4},
    {"h0", FIELD_H0, 4},
    {"expanded", FIELD_NODES_EXPANDED, 14},
    {"generated", FIELD_NODES_GENERATED, 14},
    {"seconds", FIELD_SECONDS, 9},
};
#define TEXT_COLUMNS ((int)(sizeof text_columns / sizeof text_columns[0]))
#define TEXT_MOVES_HEAD "moves"
#define TEXT_TOTAL "total"
#define TEXT_MISMATCH "MISMATCH" /* the status of a solved board whose --check failed */

void record_init(record *r)
{
    *r = (record){.status = RECORD_STATUS_NONE, .solvable = -1, .length = -1, .opt = -1};
}

const char *record_board_id(const np_board_meta *meta, long line, char *buf, size_t len)
{
    if (meta->id[0])
        return meta->id;
    snprintf(buf, len, "%ld", line);
    return buf;
}

/* ---- writing ------------------------------------------------------------------ */

void record_writer_init(record_writer *w, FILE *out, record_format fmt)
{
    w->out = out;
    w->fmt = fmt;
    w->id_width = (int)strlen(TEXT_TOTAL); /* the last line's label sits in the id column */
    w->opt_columns = false;
    w->mark_mismatch = false;
}

/* The columns s takes on a terminal: its characters, not its bytes (UTF-8:
 * the bytes that start one; a wide character counts one). */
static size_t text_width(const char *s)
{
    size_t n = 0;
    for (const unsigned char *p = (const unsigned char *)s; *p; p++)
        n += (*p & 0xc0) != 0x80;
    return n;
}

void record_writer_fit_id(record_writer *w, const char *id)
{
    int l = (int)text_width(id);
    if (l > w->id_width)
        w->id_width = l;
}

/* Whether the writer's form has field f: in r, or in the header when r is NULL. */
static bool field_written(const record_writer *w, const record *r, record_field f)
{
    switch (f) {
    case FIELD_BOUND: return w->fmt == RECORD_JSON && r && r->status == NP_STATUS_LIMIT;
    case FIELD_NODES_EXTRA: return w->fmt == RECORD_JSON && r && r->nodes_extra;
    case FIELD_OPT: return w->fmt == RECORD_CSV ? w->opt_columns : r && r->opt >= 0;
    case FIELD_CHECK: return w->fmt == RECORD_CSV ? w->opt_columns : r && r->check;
    default: return true;
    }
}

/* u in decimal, as printf's %llu writes it, at the end of buf (24 bytes are
 * enough). @return where it starts. */
static char *udecimal(char *buf, size_t len, unsigned long long u)
{
    char *p = buf + len;
    *--p = '\0';
    do {
        *--p = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    return p;
}

/* v in decimal, as printf's %lld writes it; as udecimal. */
static char *decimal(char *buf, size_t len, long long v)
{
    char *p = udecimal(buf, len, v < 0 ? 0 - (unsigned long long)v : (unsigned long long)v);
    if (v < 0)
        *--p = '-';
    return p;
}

/* Field f of r as the writer's form shows it: the text table's cell, or the
 * json and csv value (csv leaves opt and check empty when they are unknown:
 * check of a board without an answer, a limit's). */
static const char *field_value(char *buf, size_t len, const record_writer *w, const record *r,
                               record_field f)
{
    bool text = w->fmt == RECORD_TEXT;
    switch (f) {
    case FIELD_ID: return r->id;
    case FIELD_SIZE: return r->size;
    case FIELD_STATUS:
        if (text && w->mark_mismatch && r->status == NP_STATUS_SOLVED && r->check &&
            !strcmp(r->check, "mismatch"))
            return TEXT_MISMATCH;
        return np_status_name((np_status)r->status);
    case FIELD_SOLVABLE: return r->solvable ? "true" : "false";
    case FIELD_LENGTH: return text && r->length < 0 ? "-" : decimal(buf, len, r->length);
    case FIELD_MOVES: return r->moves;
    case FIELD_NODES_EXPANDED: return udecimal(buf, len, r->nodes_expanded);
    case FIELD_NODES_GENERATED: return udecimal(buf, len, r->nodes_generated);
    case FIELD_NODES_EXTRA: return udecimal(buf, len, r->nodes_extra);
    case FIELD_SECONDS: snprintf(buf, len, text ? "%.3f" : "%.6f", r->seconds); return buf;
    case FIELD_H0: return decimal(buf, len, r->h0);
    case FIELD_BOUND: return decimal(buf, len, r->bound);
    case FIELD_OPT:
        if (r->opt < 0)
            return text ? "-" : "";
        return decimal(buf, len, r->opt);
    case FIELD_CHECK: return r->check ? r->check : "";
    case FIELD_COUNT: break;
    }
    return "";
}

/* A record's line, gathered in memory and handed to the stream in one write
 * (or whenever the buffer fills): one stdio call per record, not per field. */
typedef struct line_out {
    FILE *out;
    size_t n;
    char buf[2048];
} line_out;

static void line_flush(line_out *l)
{
    fwrite(l->buf, 1, l->n, l->out);
    l->n = 0;
}

static void line_write(line_out *l, const char *s, size_t len)
{
    if (len > sizeof l->buf - l->n) {
        line_flush(l);
        if (len > sizeof l->buf) {
            fwrite(s, 1, len, l->out);
            return;
        }
    }
    memcpy(l->buf + l->n, s, len);
    l->n += len;
}

static void line_puts(line_out *l, const char *s)
{
    line_write(l, s, strlen(s));
}

static void line_putc(line_out *l, char c)
{
    line_write(l, &c, 1);
}

/* s in a column of `width` characters, as printf's %*s: width < 0 aligns it left. */
static void line_column(line_out *l, const char *s, int width)
{
    size_t len = strlen(s), cols = text_width(s), w = (size_t)(width < 0 ? -width : width);
    size_t pad = cols < w ? w - cols : 0;
    static const char spaces[] = "                                ";
    if (width < 0)
        line_write(l, s, len);
    for (; pad > 0; pad -= pad < sizeof spaces - 1 ? pad : sizeof spaces - 1)
        line_write(l, spaces, pad < sizeof spaces - 1 ? pad : sizeof spaces - 1);
    if (width >= 0)
        line_write(l, s, len);
}

/* s as a json string: escaped by cli_json_string when it needs it (moves,
 * sizes and names never do). */
static void line_json_string(line_out *l, const char *s)
{
    for (const unsigned char *p = (const unsigned char *)s; *p; p++)
        if (*p == '"' || *p == '\\' || *p < 0x20) {
            line_flush(l);
            cli_json_string(l->out, s);
            return;
        }
    line_putc(l, '"');
    line_puts(l, s);
    line_putc(l, '"');
}

/* s as a csv field, quoted when it holds a comma, a quote or a newline. */
static void line_csv_field(line_out *l, const char *s)
{
    if (!strpbrk(s, ",\"\n")) {
        line_puts(l, s);
        return;
    }
    line_putc(l, '"');
    for (; *s; s++) {
        if (*s == '"')
            line_putc(l, '"');
        line_putc(l, *s);
    }
    line_putc(l, '"');
}

void record_write_header(const record_writer *w)
{
    line_out l = {.out = w->out};
    if (w->fmt == RECORD_TEXT) {
        for (int i = 0; i < TEXT_COLUMNS; i++) {
            if (i)
                line_putc(&l, ' ');
            line_column(&l, text_columns[i].head, i ? text_columns[i].width : -w->id_width);
        }
        line_puts(&l, "  " TEXT_MOVES_HEAD "\n");
    } else if (w->fmt == RECORD_CSV) {
        const char *sep = "";
        for (int f = 0; f < FIELD_COUNT; f++)
            if (field_written(w, NULL, (record_field)f)) {
                line_puts(&l, sep);
                line_puts(&l, fields[f].name);
                sep = ",";
            }
        line_putc(&l, '\n');
    }
    line_flush(&l);
}

void record_write(const record_writer *w, const record *r)
{
    char buf[400]; /* a number's text: "%.6f" of any double fits */
    line_out l = {.out = w->out};
    switch (w->fmt) {
    case RECORD_TEXT:
        for (int i = 0; i < TEXT_COLUMNS; i++) {
            if (i)
                line_putc(&l, ' ');
            line_column(&l, field_value(buf, sizeof buf, w, r, text_columns[i].field),
                        i ? text_columns[i].width : -w->id_width);
        }
        line_puts(&l, "  ");
        line_puts(&l, r->moves);
        if (r->status == NP_STATUS_LIMIT) {
            line_puts(&l, "(stopped at bound ");
            line_puts(&l, decimal(buf, sizeof buf, r->bound));
            line_putc(&l, ')');
        }
        break;
    case RECORD_JSON: {
        char sep = '{';
        for (int f = 0; f < FIELD_COUNT; f++) {
            if (!field_written(w, r, (record_field)f))
                continue;
            line_putc(&l, sep);
            line_putc(&l, '"');
            line_puts(&l, fields[f].name);
            line_puts(&l, "\":");
            const char *v = field_value(buf, sizeof buf, w, r, (record_field)f);
            if (fields[f].string)
                line_json_string(&l, v);
            else
                line_puts(&l, v);
            sep = ',';
        }
        line_putc(&l, '}');
        break;
    }
    case RECORD_CSV: {
        bool first = true;
        for (int f = 0; f < FIELD_COUNT; f++)
            if (field_written(w, r, (record_field)f)) {
                if (!first)
                    line_putc(&l, ',');
                line_csv_field(&l, field_value(buf, sizeof buf, w, r, (record_field)f));
                first = false;
            }
        break;
    }
    }
    line_putc(&l, '\n');
    line_flush(&l);
}

void record_write_totals(const record_writer *w, const record_totals *t)
{
    if (w->fmt != RECORD_TEXT)
        return;
    char extra[64] = "", rate[96];
    if (t->extra)
        snprintf(extra, sizeof extra, " (+%llu extra)", (unsigned long long)t->extra);
    /* Resumed boards' nodes were searched in earlier runs too: their rate is
     * over the search time of all runs, not over this run's wall time. */
    double nodes = (double)(t->generated + t->extra);
    if (t->resumed)
        snprintf(rate, sizeof rate, "%.1f M nodes per search second (%zu boards resumed)",
                 t->search_seconds > 0 ? nodes / t->search_seconds / 1e6 : 0.0, t->resumed);
    else
        snprintf(rate, sizeof rate, "%.1f M nodes/s",
                 t->wall_seconds > 0 ? nodes / t->wall_seconds / 1e6 : 0.0);
    fprintf(
        w->out,
        "%-*s %zu boards: %d solved, %d unsolvable, %d limit%s; %llu expanded, %llu generated%s, "
        "%.3f s search, %.3f s wall, %s\n",
        w->id_width, TEXT_TOTAL, t->boards, t->solved, t->unsolvable, t->limits,
        t->mismatch ? ", CHECK MISMATCH" : "", (unsigned long long)t->expanded,
        (unsigned long long)t->generated, extra, t->search_seconds, t->wall_seconds, rate);
}

/* ---- reading ------------------------------------------------------------------ */

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
    if (!strcmp(s, "solved") || !strcmp(s, TEXT_MISMATCH))
        return NP_STATUS_SOLVED;
    if (!strcmp(s, "unsolvable"))
        return NP_STATUS_UNSOLVABLE;
    if (!strcmp(s, "limit"))
        return NP_STATUS_LIMIT;
    if (!strcmp(s, "error"))
        return NP_STATUS_ERROR;
    return RECORD_STATUS_NONE;
}

/* The schema field a json key names (the json names only), or -1. */
static int json_field(const char *key)
{
    for (int f = 0; f < FIELD_COUNT; f++)
        if (!strcmp(key, fields[f].name))
            return f;
    return -1;
}

/* The field a key names: a json key or csv column, or a text column head. */
static int field_named(const char *key)
{
    const int f = json_field(key);
    if (f >= 0)
        return f;
    for (int i = 0; i < TEXT_COLUMNS; i++)
        if (!strcmp(key, text_columns[i].head))
            return (int)text_columns[i].field;
    return -1;
}

/* record_set_field without the repeat check. @return NULL, or the name of
 * the field whose value is malformed. */
static const char *set_field(record *r, int field, const char *val)
{
    switch (field) {
    case FIELD_ID: r->id = val; break;
    case FIELD_SIZE: r->size = val; break;
    case FIELD_STATUS:
        if ((r->status = parse_status(val)) == RECORD_STATUS_NONE)
            return fields[FIELD_STATUS].name;
        break;
    case FIELD_LENGTH:
        if (!strcmp(val, "-1") || !strcmp(val, "-") || !*val)
            r->length = -1;
        else if (!parse_count(val, &r->length))
            return fields[FIELD_LENGTH].name;
        break;
    case FIELD_OPT:
        if (!strcmp(val, "-") || !*val || !strcmp(val, "null"))
            r->opt = -1;
        else if (!parse_count(val, &r->opt))
            return fields[FIELD_OPT].name;
        break;
    case FIELD_SOLVABLE:
        if (!strcmp(val, "true"))
            r->solvable = 1;
        else if (!strcmp(val, "false"))
            r->solvable = 0;
        else
            return fields[FIELD_SOLVABLE].name;
        break;
    case FIELD_MOVES: r->moves = val; break;
    default: break; /* not needed to check an answer */
    }
    return NULL;
}

const char *record_set_field(record *r, const char *key, const char *val, char *msg, size_t msglen)
{
    int f = field_named(key);
    if (f < 0)
        return NULL;
    if (r->given & (1u << f)) {
        snprintf(msg, msglen, "field %s: given twice", fields[f].name);
        return msg;
    }
    r->given |= 1u << f;
    const char *bad = set_field(r, f, val);
    if (bad) {
        snprintf(msg, msglen, "field %s: '%.40s' is malformed", bad, val);
        return msg;
    }
    return NULL;
}

/* The four hex digits at p as a number, or -1. */
static long hex4(const char *p)
{
    long v = 0;
    for (int i = 0; i < 4; i++) {
        const int c = (unsigned char)p[i];
        const int d = isdigit(c) ? c - '0' : isxdigit(c) ? tolower(c) - 'a' + 10 : -1;
        if (d < 0)
            return -1;
        v = v * 16 + d;
    }
    return v;
}

/* Code point v (not a surrogate, at most U+10FFFF) in UTF-8 at w.
 * @return past its last byte. */
static char *utf8_put(char *w, unsigned long v)
{
    if (v < 0x80) {
        *w++ = (char)v;
    } else if (v < 0x800) {
        *w++ = (char)(0xc0 | v >> 6);
        *w++ = (char)(0x80 | (v & 0x3f));
    } else if (v < 0x10000) {
        *w++ = (char)(0xe0 | v >> 12);
        *w++ = (char)(0x80 | (v >> 6 & 0x3f));
        *w++ = (char)(0x80 | (v & 0x3f));
    } else {
        *w++ = (char)(0xf0 | v >> 18);
        *w++ = (char)(0x80 | (v >> 12 & 0x3f));
        *w++ = (char)(0x80 | (v >> 6 & 0x3f));
        *w++ = (char)(0x80 | (v & 0x3f));
    }
    return w;
}

/* Whether s is a json literal other than a string: a number, true, false or
 * null. */
static bool json_literal(const char *s)
{
    if (!strcmp(s, "true") || !strcmp(s, "false") || !strcmp(s, "null"))
        return true;
    const char *p = s + (*s == '-');
    if (!isdigit((unsigned char)*p) || (*p == '0' && isdigit((unsigned char)p[1])))
        return false;
    while (isdigit((unsigned char)*p))
        p++;
    if (*p == '.') {
        if (!isdigit((unsigned char)*++p))
            return false;
        while (isdigit((unsigned char)*p))
            p++;
    }
    if (*p == 'e' || *p == 'E') {
        p += p[1] == '+' || p[1] == '-' ? 2 : 1;
        if (!isdigit((unsigned char)*p))
            return false;
        while (isdigit((unsigned char)*p))
            p++;
    }
    return !*p;
}

/* Decode a flat json object in place, handing each key and value to
 * record_set_field. @return NULL, or a message naming what is malformed
 * (static or in msg). */
static const char *json_record(record *r, char *s, char *msg, size_t msglen)
{
    char *p = s;
    while (isspace((unsigned char)*p))
        p++;
    if (*p++ != '{')
        return "field 1: not a json object";
    for (bool first = true;; first = false) {
        while (isspace((unsigned char)*p))
            p++;
        if (*p == '}' && !first)
            return "a json object ends in ','";
        if (*p == '}')
            break;
        if (*p != '"')
            return "a json key is not a string";
        /* key: no escapes expected, but decode them the same way as values */
        char *strs[2];
        bool quoted = false; /* the value */
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
                    if ((unsigned char)*p < 0x20)
                        return "a json string holds a control character (json escapes them)";
                    if (*p == '\\') {
                        p++;
                        switch (*p) {
                        case '"':
                        case '\\':
                        case '/': *w++ = *p++; break;
                        case 'n':
                            *w++ = '\n';
                            p++;
                            break;
                        case 't':
                            *w++ = '\t';
                            p++;
                            break;
                        case 'r':
                            *w++ = '\r';
                            p++;
                            break;
                        case 'b':
                            *w++ = '\b';
                            p++;
                            break;
                        case 'f':
                            *w++ = '\f';
                            p++;
                            break;
                        case 'u': {
                            /* any code point, as other writers escape them
                             * (Python's json.dumps: every one past ASCII),
                             * back to UTF-8; its bytes take no more room
                             * than the escape did */
                            long v = hex4(p + 1);
                            p += 5;
                            if (v >= 0xd800 && v <= 0xdbff && p[0] == '\\' && p[1] == 'u') {
                                const long lo = hex4(p + 2);
                                if (lo >= 0xdc00 && lo <= 0xdfff) {
                                    v = 0x10000 + ((v - 0xd800) << 10) + (lo - 0xdc00);
                                    p += 6;
                                }
                            }
                            if (v < 0)
                                return "a json \\u escape is malformed";
                            if (v == 0 || (v >= 0xd800 && v <= 0xdfff))
                                return "a json \\u escape is not a character (NUL, a lone "
                                       "surrogate)";
                            w = utf8_put(w, (unsigned long)v);
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
                /* json text is UTF-8, as solve writes it (a byte that is not would be
                 * written back as U+FFFD: another id) */
                if (!cli_utf8_valid(start))
                    return "a json string is not valid UTF-8";
                strs[part] = start;
                quoted = part == 1;
                while (isspace((unsigned char)*p))
                    p++;
                next = *p;
            } else {
                if (part == 0)
                    return "a json key is not a string";
                if (*p == '{' || *p == '[') {
                    /* solve writes flat objects: nothing else is its output */
                    snprintf(msg, msglen, "field %s: a json %s, not a value solve writes", strs[0],
                             *p == '{' ? "object" : "array");
                    return msg;
                }
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
                if (!json_literal(start)) {
                    snprintf(msg, msglen, "field %s: '%.40s' is not a json value", strs[0], start);
                    return msg;
                }
                strs[part] = start;
            }
            if (part == 0) {
                if (next != ':')
                    return "a json key is not followed by ':'";
                p++;
            }
        }
        /* each field as solve writes it: a string quoted, a number, true,
         * false or null not ("length":"5" is no length, "moves":null no
         * moves); other keys (the text table's column heads too) are not
         * read */
        const int f = json_field(strs[0]);
        if (f >= 0 && quoted != fields[f].string) {
            snprintf(msg, msglen, "field %s: a json %s, not the %s solve writes", strs[0],
                     quoted ? "string" : "literal", fields[f].string ? "string" : "literal");
            return msg;
        }
        const char *bad = f >= 0 ? record_set_field(r, strs[0], strs[1], msg, msglen) : NULL;
        if (bad)
            return bad;
        if (next == '}')
            break;
        if (next != ',') {
            snprintf(msg, msglen, "field %s: not followed by ',' or '}'", strs[0]);
            return msg;
        }
        p++;
    }
    for (p++; isspace((unsigned char)*p); p++)
        ;
    if (*p)
        return "text after the json object";
    return NULL;
}

/* Split a csv line in place into at most RECORD_MAX_COLUMNS fields ("" quotes
 * doubled). @return the number of fields, or -1 with *bad the field (from 0)
 * at fault and *why what is wrong with it. */
static int csv_split(char *s, char **f, int *bad, const char **why)
{
    int n = 0;
    for (;;) {
        if (n == RECORD_MAX_COLUMNS) {
            *bad = n;
            *why = "more fields than any record of npuzzle solve has";
            return -1;
        }
        char *w = s;
        f[n++] = w;
        if (*s == '"') {
            s++;
            for (;;) {
                if (!*s) {
                    *bad = n - 1;
                    *why = "its quote is not closed";
                    return -1;
                }
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
            if (*s && *s != ',') {
                *bad = n - 1;
                *why = "text after its closing quote";
                return -1;
            }
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

/* Recognise the form from the first line that is not blank, `s`.
 * @return 0 when `s` is a header (nothing more to read in it), 1 when it is a
 *         record (json), -1 when it is not solve's output (message in msg). */
static int read_format(record_reader *rd, char *s, char *msg, size_t msglen)
{
    size_t idlen = strlen(fields[FIELD_ID].name);
    if (*s == '{') {
        rd->fmt = RECORD_JSON;
        rd->known = true;
        return 1;
    }
    if (!strncmp(s, fields[FIELD_ID].name, idlen) && s[idlen] == ',') {
        char *f[RECORD_MAX_COLUMNS];
        int bad;
        const char *why;
        int n = csv_split(s, f, &bad, &why);
        if (n < 0) {
            snprintf(msg, msglen, "field header: column %d: %s", bad + 1, why);
            return -1;
        }
        rd->fmt = RECORD_CSV;
        rd->known = true;
        rd->ncols = n;
        for (int i = 0; i < n; i++)
            rd->colname[i] = strdup(f[i]);
        return 0;
    }
    if (!strncmp(s, text_columns[0].head, strlen(text_columns[0].head)) &&
        isspace((unsigned char)s[strlen(text_columns[0].head)]) &&
        strstr(s, text_columns[2].head)) {
        rd->fmt = RECORD_TEXT;
        rd->known = true;
        return 0;
    }
    snprintf(msg, msglen, "field 1: not solve's output (text, json or csv)");
    return -1;
}

/* A text row: the columns split at white space, then the moves. @return as
 * record_read_line. */
static int read_text(char *s, record *r, char *msg, size_t msglen)
{
    char *f[TEXT_COLUMNS + 1];
    int n = 0;
    char *q = s;
    while (*q && n < TEXT_COLUMNS + 1) {
        f[n++] = q;
        while (*q && !isspace((unsigned char)*q))
            q++;
        if (*q)
            *q++ = 0;
        while (isspace((unsigned char)*q))
            q++;
    }
    if (n >= 3 && !strcmp(f[0], TEXT_TOTAL) && !strcmp(f[2], "boards:"))
        return 0;
    const char *rest = q; /* past the moves: nothing, in solve's text */
    if (n < TEXT_COLUMNS) {
        snprintf(msg, msglen, "field count: %d columns, solve's text has %d or %d", n, TEXT_COLUMNS,
                 TEXT_COLUMNS + 1);
        return -1;
    }
    for (int i = 0; i < TEXT_COLUMNS; i++) {
        if (record_set_field(r, fields[text_columns[i].field].name, f[i], msg, msglen))
            return -1;
    }
    const char *moves = n > TEXT_COLUMNS ? f[TEXT_COLUMNS] : "";
    if (r->status == NP_STATUS_LIMIT && !strcmp(moves, "(stopped") &&
        !strncmp(rest, "at bound ", 9)) {
        moves = ""; /* a limit row: "(stopped at bound N)" where the moves would be */
        rest = "";
    }
    if (*rest) {
        snprintf(msg, msglen, "field moves: text after them ('%.20s')", rest);
        return -1;
    }
    r->moves = moves;
    return 1;
}

/* A csv row, its fields named by the header. @return as record_read_line. */
static int read_csv(const record_reader *rd, char *s, record *r, char *msg, size_t msglen)
{
    char *f[RECORD_MAX_COLUMNS];
    int bad;
    const char *why;
    int n = csv_split(s, f, &bad, &why);
    if (n < 0) {
        if (bad < rd->ncols && rd->colname[bad])
            snprintf(msg, msglen, "field %s: %s", rd->colname[bad], why);
        else
            snprintf(msg, msglen, "field %d (past the header's %d): %s", bad + 1, rd->ncols, why);
        return -1;
    }
    if (n != rd->ncols) {
        snprintf(msg, msglen, "field count: %d fields, the header has %d", n, rd->ncols);
        return -1;
    }
    for (int i = 0; i < n; i++) {
        if (!rd->colname[i])
            continue;
        if (record_set_field(r, rd->colname[i], f[i], msg, msglen))
            return -1;
    }
    return 1;
}

int record_read_line(record_reader *rd, char *line, record *r, char *msg, size_t msglen)
{
    char *s = line;
    while (isspace((unsigned char)*s))
        s++;
    if (!*s)
        return 0;
    /* The header again (outputs concatenated, as of solve --shard K/N): read
     * as the first one was, the csv columns afresh. */
    if (rd->known && rd->fmt != RECORD_JSON) {
        size_t idlen = strlen(fields[FIELD_ID].name), head = strlen(text_columns[0].head);
        size_t sizelen = strlen(fields[FIELD_SIZE].name);
        bool again = rd->fmt == RECORD_CSV
            /* "id,size,": a row's second field is its size, RxC */
            ? !strncmp(s, fields[FIELD_ID].name, idlen) && s[idlen] == ',' &&
                !strncmp(s + idlen + 1, fields[FIELD_SIZE].name, sizelen) &&
                s[idlen + 1 + sizelen] == ','
            : !strncmp(s, text_columns[0].head, head) && isspace((unsigned char)s[head]) &&
                strstr(s, text_columns[2].head);
        if (again) {
            record_reader_free(rd);
            rd->known = false;
        }
    }
    if (!rd->known) {
        int rc = read_format(rd, s, msg, msglen);
        if (rc <= 0)
            return rc;
    }
    record_init(r);
    int rc;
    if (rd->fmt == RECORD_JSON) {
        const char *bad = json_record(r, s, msg, msglen);
        if (bad && bad != msg)
            snprintf(msg, msglen, "%s", bad);
        rc = bad ? -1 : 1;
    } else if (rd->fmt == RECORD_CSV) {
        rc = read_csv(rd, s, r, msg, msglen);
    } else {
        rc = read_text(s, r, msg, msglen);
    }
    if (rc <= 0)
        return rc;
    const char *missing = !r->id                     ? fields[FIELD_ID].name
        : r->status == RECORD_STATUS_NONE            ? fields[FIELD_STATUS].name
        : r->status == NP_STATUS_SOLVED && !r->moves ? fields[FIELD_MOVES].name
                                                     : NULL;
    if (missing) {
        snprintf(msg, msglen, "field %s: missing", missing);
        return -1;
    }
    return 1;
}

void record_reader_free(record_reader *rd)
{
    for (int i = 0; i < rd->ncols; i++)
        free(rd->colname[i]);
    rd->ncols = 0;
}
