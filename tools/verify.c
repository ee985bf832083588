/* verify.c - the `npuzzle verify` subcommand: replay move strings and check each answer, no
 * search. */
#include <ctype.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "boards.h"
#include "cli.h"
#include "npuzzle.h"
#include "record.h"

void usage_verify(void)
{
    printf("usage: npuzzle verify [OPTIONS] [FILE...]\n"
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
           "    TILES... # id=NAME opt=N moves=ULDR... [length=N] [status=S] [size=RxC]\n"
           "Second form: the boards given to `npuzzle solve` (--boards) and its output\n"
           "in any format (--results: text, json or csv, recognised by its first line),\n"
           "paired by id (in order, or in any order: the outputs of solve --shard K/N\n"
           "concatenated); every board needs one answer, and no two boards may share an\n"
           "id. Either may be '-' for standard input.\n"
           "\n"
           "options:\n"
           "      --boards FILE    the boards that were solved\n"
           "      --results FILE   what `npuzzle solve --format text|json|csv` printed\n"
           "      --size RxC       board size (for non-square boards whose lines do not\n"
           "                       say size=RxC)\n"
           "      --goal G         blank-first (default) or blank-last\n"
           "  -w, --weight W       accept lengths up to W times opt= (weighted search; W\n"
           "                       to a thousandth, rounded down, as IDA* takes it)\n"
           "  -q, --quiet          print only the answers that fail, and the summary\n"
           "  -h, --help           this text\n"
           "\n"
           "Output: one line per board, FILE:LINE: id NAME: ok or the problem, then a\n"
           "summary line.\n"
           "\n"
           "exit codes: 0 every answer is right, 1 an answer is wrong or has none (status\n"
           "limit: a limit was reached), 2 bad usage or malformed input (FILE:LINE: field\n"
           "...; a board with no answer line too), 3 a file cannot be read, or standard\n"
           "output cannot be written.\n");
}

/* ---- the check itself ------------------------------------------------------ */

typedef struct tally {
    long boards, ok, wrong;
    boards_errors bad; /* malformed input lines (exit 2), reported as FILE:LINE */
    bool io_error;
} tally;

typedef struct vopts {
    int rows, cols;
    np_goal goal;
    double weight;
    bool quiet;
} vopts;

/* Print the outcome of one board: `where` names file and line. */
/* clang-format off */
#if defined(__GNUC__)
__attribute__((format(printf, 4, 5)))
#endif
static void report(tally *t, const vopts *o, bool ok, const char *fmt, ...)
/* clang-format on */
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
                         const np_board *start, const np_board_meta *meta, const record *a)
{
    np_geom g;
    t->boards++;
    if (np_geom_init(&g, start->rows, start->cols, o->goal) != NP_OK) {
        report(t, o, false, "%s: id %s: WRONG: unsupported board size %dx%d", where, id,
               start->rows, start->cols);
        return;
    }
    char size[16];
    snprintf(size, sizeof size, "%dx%d", start->rows, start->cols);
    if (a->size && strcmp(a->size, size) != 0) {
        report(t, o, false, "%s: id %s: WRONG: the answer is for size %s, the board is %s", where,
               id, a->size, size);
        return;
    }
    bool solvable = np_board_solvable(start, &g);
    if (a->solvable >= 0 && a->solvable != (int)solvable) {
        report(t, o, false, "%s: id %s: WRONG: says solvable=%s, but the board is %s (%s goal)",
               where, id, a->solvable ? "true" : "false", solvable ? "solvable" : "unsolvable",
               np_goal_name(o->goal));
        return;
    }
    long opt = meta->opt >= 0 ? meta->opt : a->opt;
    if (meta->opt >= 0 && a->opt >= 0 && meta->opt != a->opt) {
        report(t, o, false, "%s: id %s: WRONG: the answer says opt=%ld, the board says opt=%d",
               where, id, a->opt, meta->opt);
        return;
    }
    int status = a->status;
    if (status == RECORD_STATUS_NONE)
        status = NP_STATUS_SOLVED;
    if (status == NP_STATUS_UNSOLVABLE) {
        if (solvable)
            report(t, o, false,
                   "%s: id %s: WRONG: answered unsolvable, but the board is solvable "
                   "(permutation parity, %s goal)",
                   where, id, np_goal_name(o->goal));
        else if (a->moves && *a->moves)
            report(t, o, false, "%s: id %s: WRONG: answered unsolvable, yet gives moves", where,
                   id);
        else if (a->length >= 0)
            report(t, o, false, "%s: id %s: WRONG: answered unsolvable, yet gives length %ld",
                   where, id, a->length);
        else if (opt >= 0)
            /* as solve --check counts it: opt= says the board is solvable */
            report(t, o, false,
                   "%s: id %s: WRONG: the board is unsolvable (permutation parity, %s goal), "
                   "yet opt=%ld (is opt= wrong?)",
                   where, id, np_goal_name(o->goal), opt);
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
        report(t, o, false,
               "%s: id %s: WRONG: answered with moves, but the board is unsolvable "
               "(permutation parity, %s goal)",
               where, id, np_goal_name(o->goal));
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
            report(t, o, false,
                   "%s: id %s: WRONG: move %ld (%c) is illegal: the blank is at row %d, "
                   "column %d of %d x %d",
                   where, id, k + 1, ch, g.row[b.blank] + 1, g.col[b.blank] + 1, g.rows, g.cols);
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
        report(t, o, false, "%s: id %s: WRONG: length %ld, but the moves are %ld", where, id,
               a->length, nmoves);
        return;
    }
    if (opt >= 0) {
        if (nmoves < opt) {
            report(t, o, false,
                   "%s: id %s: WRONG: %ld moves reach the goal, fewer than opt=%ld "
                   "(is opt= wrong?)",
                   where, id, nmoves, opt);
            return;
        }
        const bool weighted = o->weight > 1.0;
        if (weighted ? !cli_within_weight(nmoves, opt, o->weight) : nmoves != opt) {
            if (weighted)
                report(t, o, false, "%s: id %s: WRONG: length %ld is more than %g x opt=%ld", where,
                       id, nmoves, (double)np_weight_milli(o->weight) / 1000.0, opt);
            else
                report(t, o, false, "%s: id %s: WRONG: length %ld, but opt=%ld", where, id, nmoves,
                       opt);
            return;
        }
        report(t, o, true, "%s: id %s: ok, %ld moves (opt %ld)", where, id, nmoves, opt);
        return;
    }
    report(t, o, true, "%s: id %s: ok, %ld moves", where, id, nmoves);
}

/* ---- first form: boards whose comment holds the answer -------------------- */

/* Whether the comma at s starts another field: the word after it (up to a
 * space or comma) holds '='. */
static bool field_follows(const char *s)
{
    for (s++; *s && !isspace((unsigned char)*s) && *s != ','; s++)
        if (*s == '=')
            return true;
    return false;
}

/* Find the answer's key=value words in the comment of `line` (split on spaces and
 * commas, as the board parser does; moves= also takes the commas between its
 * moves, which check_answer skips). Modifies the comment in place. */
static const char *answer_from_comment(record *a, char *line, char *msg, size_t msglen)
{
    record_init(a);
    char *s = strchr(line, '#');
    if (!s)
        return NULL;
    s++;
    while (*s) {
        while (*s && (isspace((unsigned char)*s) || *s == ','))
            s++;
        char *w = s;
        /* moves= takes the letters up to the next space or the next field
         * (a word with '=' after a comma), commas among them as separators:
         * "moves=L,R" is two moves (the comma ended the word, and R was read
         * as free text), "moves=LL,length=2" two moves and a field */
        const bool moves = !strncmp(w, "moves=", 6);
        while (*s && !isspace((unsigned char)*s) && (*s != ',' || (moves && !field_follows(s))))
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
            bad = record_set_field(a, w, eq + 1, msg, msglen);
        *eq = '=';
        if (bad)
            return bad;
    }
    return NULL;
}

static int verify_annotated(tally *t, const vopts *o, const char *name)
{
    boards_reader r;
    if (boards_open(&r, name, "verify") != 0) {
        t->io_error = true;
        return 0;
    }
    np_board b;
    np_board_meta meta;
    int rc;
    while ((rc = boards_next(&r, o->rows, o->cols, &b, &meta, &t->bad)) == 1) {
        record a;
        char msg[160];
        const char *bad = answer_from_comment(&a, r.line, msg, sizeof msg);
        if (bad) {
            boards_error(&t->bad, r.name, r.lineno, "%s", bad);
            continue;
        }
        if (!a.moves && a.status == RECORD_STATUS_NONE) {
            boards_error(&t->bad, r.name, r.lineno,
                         "field moves: missing (write the answer as moves=ULDR... "
                         "in the comment)");
            continue;
        }
        char where[512], idbuf[32];
        snprintf(where, sizeof where, "%s:%ld", r.name, r.lineno);
        check_answer(t, o, where, record_board_id(&meta, r.lineno, idbuf, sizeof idbuf), &b, &meta,
                     &a);
    }
    if (rc < 0) {
        boards_read_error(&r, "verify");
        t->io_error = true;
    }
    boards_close(&r);
    return 0;
}

/* ---- second form: boards paired with solve's output ------------------------ */

typedef struct results {
    boards_reader r;
    record_reader rd;
} results;

/* Read the next answer. @return 1, 0 at the end, -1 input error (reported and
 * counted; the record is consumed), -2 read error. */
static int results_next(results *rs, tally *t, record *a)
{
    boards_reader *r = &rs->r;
    int rc;
    while ((rc = boards_next_line(r, &t->bad)) != 0) {
        if (rc < 0)
            return -2;
        if (rc == 2)
            return -1;
        char msg[256];
        int got = record_read_line(&rs->rd, r->line, a, msg, sizeof msg);
        if (got == 0)
            continue;
        if (got < 0) {
            boards_error(&t->bad, r->name, r->lineno, "%s", msg);
            return -1;
        }
        return 1;
    }
    return 0;
}

/* One answer of the results, its strings copied. */
typedef struct answer {
    record a;
    long lineno;
    bool used;
    char *strings; /* id, size, moves and check, one after another */
} answer;

static bool answer_keep(answer *x, const record *a, long lineno)
{
    const char *src[4] = {a->id, a->size, a->moves, a->check};
    size_t len = 0;
    for (int i = 0; i < 4; i++)
        len += src[i] ? strlen(src[i]) + 1 : 0;
    x->strings = malloc(len ? len : 1);
    if (!x->strings)
        return false;
    x->a = *a;
    x->lineno = lineno;
    x->used = false;
    const char **dst[4] = {&x->a.id, &x->a.size, &x->a.moves, &x->a.check};
    char *p = x->strings;
    for (int i = 0; i < 4; i++) {
        if (!src[i])
            continue;
        size_t l = strlen(src[i]) + 1;
        memcpy(p, src[i], l);
        *dst[i] = p;
        p += l;
    }
    return true;
}

/* qsort has no context argument: the answers being sorted. */
static const answer *sorted_answers;

static int cmp_answer_id(const void *x, const void *y)
{
    size_t i = *(const size_t *)x, j = *(const size_t *)y;
    int c = strcmp(sorted_answers[i].a.id, sorted_answers[j].a.id);
    return c ? c : (i > j) - (i < j);
}

/* The first unused answer (in their order) with this id, by binary search
 * over byid (the answers' indices sorted by id, then order); nans if none. */
static size_t answer_find(const answer *ans, const size_t *byid, size_t nans, const char *id)
{
    size_t lo = 0, hi = nans;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (strcmp(ans[byid[mid]].a.id, id) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (; lo < nans && !strcmp(ans[byid[lo]].a.id, id); lo++)
        if (!ans[byid[lo]].used)
            return byid[lo];
    return nans;
}

/* A board's id and line, to find ids given twice. */
typedef struct board_id {
    char *id;
    long line;
} board_id;

static int cmp_board_id(const void *x, const void *y)
{
    const board_id *a = x, *b = y;
    int c = strcmp(a->id, b->id);
    return c ? c : (a->line > b->line) - (a->line < b->line);
}

/* Boards and answers are paired by id: in order when the answers follow the
 * boards, else (the concatenated outputs of `solve --shard K/N`) the first
 * unused answer with the board's id. Every board needs one answer and every
 * answer one board. */
static int verify_paired(tally *t, const vopts *o, const char *bname, const char *rname)
{
    boards_reader br;
    results rs;
    memset(&rs, 0, sizeof rs);
    if (boards_open(&br, bname, "verify") != 0) {
        t->io_error = true;
        return 0;
    }
    if (boards_open(&rs.r, rname, "verify") != 0) {
        boards_close(&br);
        t->io_error = true;
        return 0;
    }
    rs.r.results = true;
    answer *ans = NULL;
    size_t nans = 0, cap = 0;
    long nresults = 0;
    record a;
    int rrc;
    while ((rrc = results_next(&rs, t, &a)) != 0 && rrc != -2) {
        nresults++;
        if (rrc < 0)
            continue;
        if (nans == cap) {
            cap = cap ? 2 * cap : 256;
            answer *v = realloc(ans, cap * sizeof *v);
            if (!v) {
                fprintf(stderr, "npuzzle verify: out of memory reading %s\n", rs.r.name);
                t->io_error = true;
                break;
            }
            ans = v;
        }
        if (!answer_keep(&ans[nans], &a, rs.r.lineno)) {
            fprintf(stderr, "npuzzle verify: out of memory reading %s\n", rs.r.name);
            t->io_error = true;
            break;
        }
        nans++;
    }
    if (rrc == -2) {
        boards_read_error(&rs.r, "verify");
        t->io_error = true;
    }
    /* the answers by id (then by their order), for boards out of order */
    size_t *byid = malloc((nans ? nans : 1) * sizeof *byid);
    if (!byid) {
        fprintf(stderr, "npuzzle verify: out of memory reading %s\n", rs.r.name);
        t->io_error = true;
    }
    for (size_t k = 0; byid && k < nans; k++)
        byid[k] = k;
    if (byid && nans > 1) {
        sorted_answers = ans;
        qsort(byid, nans, sizeof *byid, cmp_answer_id);
    }
    long nboards = 0;
    np_board b;
    np_board_meta meta;
    int rc = 0;
    size_t next = 0; /* the answer that follows the last one paired */
    board_id *ids = NULL;
    size_t nids = 0, idcap = 0;
    while (!t->io_error && (rc = boards_next(&br, o->rows, o->cols, &b, &meta, &t->bad)) == 1) {
        nboards++;
        char idbuf[32];
        const char *id = record_board_id(&meta, br.lineno, idbuf, sizeof idbuf);
        if (nids == idcap) {
            idcap = idcap ? 2 * idcap : 256;
            board_id *v = realloc(ids, idcap * sizeof *v);
            if (!v) {
                fprintf(stderr, "npuzzle verify: out of memory reading %s\n", br.name);
                t->io_error = true;
                break;
            }
            ids = v;
        }
        if (!(ids[nids].id = strdup(id))) {
            fprintf(stderr, "npuzzle verify: out of memory reading %s\n", br.name);
            t->io_error = true;
            break;
        }
        ids[nids++].line = br.lineno;
        size_t k = next;
        if (k >= nans || ans[k].used || strcmp(ans[k].a.id, id) != 0)
            k = answer_find(ans, byid, nans, id);
        if (k >= nans) {
            if (nans > 0 || nresults == 0)
                boards_error(&t->bad, br.name, br.lineno,
                             "field id: no answer in %s for the board with id %s", rs.r.name, id);
            continue;
        }
        ans[k].used = true;
        next = k + 1;
        char where[512];
        snprintf(where, sizeof where, "%s:%ld (%s:%ld)", br.name, br.lineno, rs.r.name,
                 ans[k].lineno);
        check_answer(t, o, where, id, &b, &meta, &ans[k].a);
    }
    if (rc < 0) {
        boards_read_error(&br, "verify");
        t->io_error = true;
    }
    /* Two boards with one id: which answer is whose cannot be told (an
     * answer holds no board), so the input is refused. */
    if (nids > 1)
        qsort(ids, nids, sizeof *ids, cmp_board_id);
    for (size_t k = 1; k < nids && !t->io_error; k++)
        if (!strcmp(ids[k].id, ids[k - 1].id))
            boards_error(&t->bad, br.name, ids[k].line,
                         "field id: '%.40s' is also the id of line %ld (answers are paired with "
                         "boards by id)",
                         ids[k].id, ids[k - 1].line);
    for (size_t k = 0; k < nids; k++)
        free(ids[k].id);
    free(ids);
    for (size_t k = 0; k < nans && !t->io_error; k++)
        if (!ans[k].used)
            boards_error(&t->bad, rs.r.name, ans[k].lineno,
                         "field id: '%.40s' matches no board of %s (or another answer has it)",
                         ans[k].a.id, br.name);
    /* (no answers at all: each board was said to have none) */
    if (nboards != nresults && nresults > 0 && !t->io_error)
        boards_error(&t->bad, rs.r.name, rs.r.lineno,
                     "field count: %ld answer lines for the %ld boards of %s", nresults, nboards,
                     br.name);
    for (size_t k = 0; k < nans; k++)
        free(ans[k].strings);
    free(ans);
    free(byid);
    record_reader_free(&rs.rd);
    boards_close(&rs.r);
    boards_close(&br);
    return 0;
}

int cmd_verify(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"boards", required_argument, NULL, 'B'}, {"results", required_argument, NULL, 'R'},
        {"size", required_argument, NULL, 's'},   {"goal", required_argument, NULL, 'g'},
        {"weight", required_argument, NULL, 'w'}, {"quiet", no_argument, NULL, 'q'},
        {"help", no_argument, NULL, 'h'},         {NULL, 0, NULL, 0},
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
                fprintf(stderr, "npuzzle verify: unknown goal '%s' (blank-first or blank-last)\n",
                        optarg);
                return EXIT_USAGE;
            }
            break;
        case 'w':
            if (!cli_parse_double("verify", "--weight", optarg, &o.weight))
                return EXIT_USAGE;
            if (o.weight < 1.0 || o.weight > 100.0) {
                fprintf(stderr, "npuzzle verify: --weight must be between 1 and 100, not '%s'\n",
                        optarg);
                return EXIT_USAGE;
            }
            break;
        case 'q': o.quiet = true; break;
        case 'h': usage_verify(); return EXIT_OK;
        default: return cli_option_error("verify", c, argv, longopts);
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

    boards_errors_tail(&t.bad);
    printf("verify: %ld boards: %ld ok, %ld wrong", t.boards, t.ok, t.wrong);
    if (t.bad.count)
        printf(", %ld malformed input line%s", t.bad.count, t.bad.count == 1 ? "" : "s");
    putchar('\n');
    cli_flush(stdout);
    if (t.io_error)
        return EXIT_PDB;
    if (t.bad.count)
        return EXIT_USAGE;
    return t.wrong ? EXIT_FAIL : EXIT_OK;
}
