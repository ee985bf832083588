/* solve.c - the `npuzzle solve` subcommand: read boards, solve them, print results. */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "npuzzle.h"
#include "record.h"
#include "solve_pdb.h"

void usage_solve(void)
{
    printf(
        "usage: npuzzle solve [OPTIONS] [FILE...]\n"
        "\n"
        "Solve sliding-tile boards optimally. Boards are read from the FILEs, or from\n"
        "standard input when there is none or FILE is '-': one board per line, its\n"
        "tiles in row-major order separated by spaces or commas, 0 the blank; '#'\n"
        "starts a comment, which may hold id=NAME and opt=N (the known optimal length).\n"
        "The size follows from the count (9, 16, 25, ...) or from --size. If any line\n"
        "is malformed, every bad line is reported as FILE:LINE and nothing is solved.\n"
        "\n"
        "options:\n"
        "  -H, --heuristic H    md (Manhattan), lc (linear conflict) or pdb (pattern\n"
        "                       databases; the default when its files exist)\n"
        "      --partition NAME PDB partition (default: 8:4-4, 15:7-8 or 24:6-6-6-6)\n"
        "      --pdb-dir DIR    where PDB files are (default $NPUZZLE_PDB_DIR, else\n"
        "                       $XDG_CACHE_HOME/npuzzle or ~/.cache/npuzzle)\n"
        "      --gen            build missing PDB files first (npuzzle gen)\n"
        "      --no-reflect     do not max the PDB sum with the reflected lookup\n"
        "      --pdb-private    look tables up in a private copy on huge pages instead\n"
        "                       of the shared read-only mapping (costs start-up time\n"
        "                       and memory per process; helps when the mapping cannot\n"
        "                       use huge pages)\n"
        "  -a, --algorithm A    ida (default) or astar (boards of at most 16 cells)\n"
        "  -w, --weight W       weighted search, f = g + W*h (W >= 1): the length is\n"
        "                       at most W times the optimal one\n"
        "      --size RxC       board size (needed for non-square boards)\n"
        "      --goal G         blank-first (default: 0 1 2 ... N-1) or blank-last\n"
        "  -j, --jobs N         threads (default: all cores or OMP_NUM_THREADS); boards\n"
        "                       are solved in parallel, a single board's search is split\n"
        "  -f, --format F       text (default), json (one object per line) or csv\n"
        "  -c, --check          compare each length with opt= (mismatch: exit 1)\n"
        "      --max-nodes N    give up on a board after N generated nodes\n"
        "      --timeout S      give up on a board after S seconds\n"
        "      --max-memory B   memory A* may use (bytes, K/M/G suffix)\n"
        "      --progress       report each finished board on standard error\n"
        "  -q, --quiet          no progress or summary on standard error\n"
        "  -h, --help           this text\n"
        "\n"
        "Output per board: id (line number unless id= is given), size, status\n"
        "(solved, unsolvable, limit), solvable, length, moves (the directions the blank\n"
        "moves: U D L R), nodes expanded and generated, seconds, h0 (start heuristic).\n"
        "\n"
        "exit codes: 0 all solved (an unsolvable board answered as such counts),\n"
        "1 a --check mismatch or a limit reached, 2 bad usage or input, 3 PDB or I/O error,\n"
        "130 interrupted by SIGINT or SIGTERM while --gen builds tables.\n");
}

/* A table truncated while mapped faults on the next lookup (SIGBUS): say
 * what happened instead of dying silently. Only async-signal-safe calls. */
static void on_sigbus(int sig)
{
    (void)sig;
    static const char msg[] = "npuzzle solve: a pattern database file was truncated while in use; "
                              "no answers (rebuild it with npuzzle gen --force)\n";
    ssize_t w = write(2, msg, sizeof msg - 1);
    (void)w;
    _exit(EXIT_PDB);
}

static void install_sigbus_handler(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_sigbus;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGBUS, &sa, NULL);
}

typedef struct entry {
    np_board board;
    np_board_meta meta;
    const char *file;
    long line;
} entry;

typedef struct input {
    entry *v;
    size_t n, cap;
    int bad;          /* malformed lines seen */
} input;

static int input_push(input *in, const entry *e)
{
    if (in->n == in->cap) {
        size_t ncap = in->cap ? in->cap * 2 : 256;
        entry *v = realloc(in->v, ncap * sizeof *v);
        if (!v)
            return -1;
        in->v = v;
        in->cap = ncap;
    }
    in->v[in->n++] = *e;
    return 0;
}

/* Read every board of one stream; report each malformed line as FILE:LINE. */
static int read_boards(input *in, FILE *f, const char *name, int rows, int cols)
{
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    long lineno = 0;
    while ((len = getline(&line, &cap, f)) >= 0) {
        lineno++;
        entry e;
        char err[256];
        if ((size_t)len != strlen(line)) {
            if (in->bad++ < 20)
                fprintf(stderr, "%s:%ld: field 1: the line holds a NUL byte (binary input?)\n",
                        name, lineno);
            continue;
        }
        int rc = np_board_parse(&e.board, &e.meta, line, rows, cols, err, sizeof err);
        if (rc == 0)
            continue;
        if (rc < 0) {
            if (in->bad++ < 20)
                fprintf(stderr, "%s:%ld: %s\n", name, lineno, err);
            continue;
        }
        e.file = name;
        e.line = lineno;
        if (input_push(in, &e) != 0) {
            free(line);
            fprintf(stderr, "npuzzle solve: out of memory reading %s\n", name);
            return EXIT_PDB;
        }
    }
    int rd_err = ferror(f);
    free(line);
    if (rd_err) {
        fprintf(stderr, "npuzzle solve: %s: read error: %s\n", name, strerror(errno));
        return EXIT_PDB;
    }
    return EXIT_OK;
}

static const char *entry_id(const entry *e, char *buf, size_t len)
{
    return record_board_id(&e->meta, e->line, buf, len);
}

typedef struct progress_ctx {
    const entry *entries;
    bool tty;
} progress_ctx;

static void on_progress(void *ctx, size_t index, size_t done, size_t total, const np_result *r)
{
    const progress_ctx *p = ctx;
    char idbuf[32];
    const char *id = entry_id(&p->entries[index], idbuf, sizeof idbuf);
    if (p->tty)
        fprintf(stderr, "\r\033[K[%zu/%zu] %s: %s", done, total, id, np_status_name(r->status));
    else
        fprintf(stderr, "[%zu/%zu] %s: %s, length %d, %.3f s\n", done, total, id,
                np_status_name(r->status), r->length, r->seconds);
    if (p->tty && done == total)
        fputs("\r\033[K", stderr);
}

int cmd_solve(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"heuristic", required_argument, NULL, 'H'},
        {"partition", required_argument, NULL, 'P'},
        {"pdb-dir", required_argument, NULL, 'D'},
        {"gen", no_argument, NULL, 'G'},
        {"no-reflect", no_argument, NULL, 'R'},
        {"pdb-private", no_argument, NULL, 'S'},
        {"algorithm", required_argument, NULL, 'a'},
        {"weight", required_argument, NULL, 'w'},
        {"size", required_argument, NULL, 's'},
        {"goal", required_argument, NULL, 'g'},
        {"jobs", required_argument, NULL, 'j'},
        {"format", required_argument, NULL, 'f'},
        {"check", no_argument, NULL, 'c'},
        {"max-nodes", required_argument, NULL, 'N'},
        {"timeout", required_argument, NULL, 'T'},
        {"max-memory", required_argument, NULL, 'M'},
        {"progress", no_argument, NULL, 'p'},
        {"quiet", no_argument, NULL, 'q'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    np_search_opts opts = {0};
    np_batch_opts bopts = {0};
    bool heuristic_given = false, check = false, progress = false, quiet = false, gen = false;
    bool shared_map = true;
    const char *partition = NULL, *pdb_dir_opt = NULL;
    int rows = 0, cols = 0, jobs = 0;
    np_goal goal = NP_GOAL_BLANK_FIRST;
    record_format fmt = RECORD_TEXT;
    uint64_t u;
    int c;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":H:a:w:j:f:cqh", longopts, NULL)) != -1) {
        switch (c) {
        case 'H':
            if (np_hkind_parse(&opts.heuristic, optarg) != NP_OK) {
                fprintf(stderr, "npuzzle solve: unknown heuristic '%s' (md, lc or pdb)\n", optarg);
                return EXIT_USAGE;
            }
            heuristic_given = true;
            break;
        case 'P': partition = optarg; break;
        case 'D': pdb_dir_opt = optarg; break;
        case 'G': gen = true; break;
        case 'R': opts.no_reflect = true; break;
        case 'S': shared_map = false; break;
        case 'a':
            if (!strcmp(optarg, "ida") || !strcmp(optarg, "idastar"))
                bopts.algorithm = NP_ALG_IDA;
            else if (!strcmp(optarg, "astar"))
                bopts.algorithm = NP_ALG_ASTAR;
            else {
                fprintf(stderr, "npuzzle solve: unknown algorithm '%s' (ida or astar)\n", optarg);
                return EXIT_USAGE;
            }
            break;
        case 'w':
            if (!cli_parse_double("solve", "--weight", optarg, &opts.weight))
                return EXIT_USAGE;
            if (opts.weight < 1.0 || opts.weight > 100.0) {
                fprintf(stderr, "npuzzle solve: --weight must be between 1 and 100, not '%s'\n", optarg);
                return EXIT_USAGE;
            }
            break;
        case 's':
            if (!cli_parse_size(optarg, &rows, &cols)) {
                fprintf(stderr, "npuzzle solve: bad --size '%s' (RxC, each side %d..%d)\n", optarg,
                        NP_MIN_SIDE, NP_MAX_SIDE);
                return EXIT_USAGE;
            }
            break;
        case 'g':
            if (np_goal_parse(&goal, optarg) != NP_OK) {
                fprintf(stderr, "npuzzle solve: unknown goal '%s' (blank-first or blank-last)\n", optarg);
                return EXIT_USAGE;
            }
            break;
        case 'j':
            if (!cli_parse_u64("solve", "-j", optarg, &u))
                return EXIT_USAGE;
            if (u < 1 || u > 1024) {
                fprintf(stderr, "npuzzle solve: -j must be between 1 and 1024, not '%s'\n", optarg);
                return EXIT_USAGE;
            }
            jobs = (int)u;
            break;
        case 'f':
            if (!strcmp(optarg, "text"))
                fmt = RECORD_TEXT;
            else if (!strcmp(optarg, "json"))
                fmt = RECORD_JSON;
            else if (!strcmp(optarg, "csv"))
                fmt = RECORD_CSV;
            else {
                fprintf(stderr, "npuzzle solve: unknown format '%s' (text, json or csv)\n", optarg);
                return EXIT_USAGE;
            }
            break;
        case 'c': check = true; break;
        case 'N':
            if (!cli_parse_u64("solve", "--max-nodes", optarg, &opts.max_nodes))
                return EXIT_USAGE;
            break;
        case 'T':
            if (!cli_parse_double("solve", "--timeout", optarg, &opts.timeout))
                return EXIT_USAGE;
            break;
        case 'M':
            if (!cli_parse_bytes("solve", "--max-memory", optarg, &opts.max_memory))
                return EXIT_USAGE;
            break;
        case 'p': progress = true; break;
        case 'q': quiet = true; break;
        case 'h': usage_solve(); return EXIT_OK;
        case ':':
            fprintf(stderr, "npuzzle solve: option '%s' needs a value (see npuzzle help solve)\n",
                    argv[optind - 1]);
            return EXIT_USAGE;
        default:
            fprintf(stderr, "npuzzle solve: unknown option '%s' (see npuzzle help solve)\n",
                    argv[optind - 1]);
            return EXIT_USAGE;
        }
    }
    if (bopts.algorithm == NP_ALG_ASTAR && opts.heuristic == NP_H_PDB) {
        fprintf(stderr, "npuzzle solve: --algorithm astar works with -H md or lc\n");
        return EXIT_USAGE;
    }

    /* Read every input first: a bad line stops the run before any search. */
    input in = {0};
    int rc = EXIT_OK;
    if (optind >= argc) {
        rc = read_boards(&in, stdin, "<stdin>", rows, cols);
    } else {
        for (int i = optind; i < argc && rc == EXIT_OK; i++) {
            if (!strcmp(argv[i], "-")) {
                rc = read_boards(&in, stdin, "<stdin>", rows, cols);
                continue;
            }
            FILE *f = fopen(argv[i], "r");
            if (!f) {
                fprintf(stderr, "npuzzle solve: cannot open %s: %s\n", argv[i], strerror(errno));
                rc = EXIT_PDB;
                break;
            }
            rc = read_boards(&in, f, argv[i], rows, cols);
            fclose(f);
        }
    }
    if (rc == EXIT_OK && in.bad) {
        if (in.bad > 20)
            fprintf(stderr, "... and %d more malformed lines\n", in.bad - 20);
        fprintf(stderr, "npuzzle solve: %d malformed line%s, nothing solved\n", in.bad,
                in.bad == 1 ? "" : "s");
        rc = EXIT_USAGE;
    }
    if (rc != EXIT_OK) {
        free(in.v);
        return rc;
    }

    int threads = cli_threads(jobs);
    bopts.threads = threads;
    progress_ctx pctx = {in.v, isatty(2) != 0};
    if ((progress || pctx.tty) && !quiet) {
        bopts.progress = on_progress;
        bopts.progress_ctx = &pctx;
    }

    np_result *res = calloc(in.n ? in.n : 1, sizeof *res);
    np_board *boards = malloc((in.n ? in.n : 1) * sizeof *boards);
    size_t *idx = malloc((in.n ? in.n : 1) * sizeof *idx);
    /* Boards of one size share a geometry (and PDBs): solve each size as a batch. */
    bool *done = calloc(in.n ? in.n : 1, sizeof *done);
    if (!res || !boards || !idx || !done) {
        fprintf(stderr, "npuzzle solve: out of memory for %zu boards\n", in.n);
        free(res);
        free(boards);
        free(idx);
        free(done);
        free(in.v);
        return EXIT_PDB;
    }
    double t0 = np_clock();
    for (size_t i = 0; i < in.n && rc == EXIT_OK; i++) {
        if (done[i])
            continue;
        int r = in.v[i].board.rows, k = in.v[i].board.cols;
        size_t m = 0;
        for (size_t j = i; j < in.n; j++)
            if (!done[j] && in.v[j].board.rows == r && in.v[j].board.cols == k) {
                boards[m] = in.v[j].board;
                idx[m++] = j;
                done[j] = true;
            }
        np_geom g;
        np_geom_init(&g, r, k, goal);
        np_search_opts o = opts;
        solve_pdb_ctx pdb = {0};
        bool want_pdb = opts.heuristic == NP_H_PDB ||
                        (!heuristic_given && bopts.algorithm == NP_ALG_IDA);
        if (want_pdb) {
            int prc = solve_pdb_open(&pdb, &g, partition, pdb_dir_opt, gen, threads, quiet,
                                     heuristic_given && opts.heuristic == NP_H_PDB, shared_map);
            if (prc != EXIT_OK) {
                rc = prc;
                break;
            }
            if (pdb.set) {
                o.heuristic = NP_H_PDB;
                o.pdbs = pdb.set;
            } else {
                o.heuristic = heuristic_given ? opts.heuristic : NP_H_LC;
            }
        }
        /* One size in the input (the usual case): results go straight into
         * place, without a second array of m results (about 1 KiB each). */
        bool direct = m == in.n;
        np_result *part = direct ? res : calloc(m, sizeof *part);
        if (!part) {
            fprintf(stderr, "npuzzle solve: out of memory\n");
            solve_pdb_close(&pdb);
            rc = EXIT_PDB;
            break;
        }
        /* The batch reports positions within this size group; map them back. */
        entry *group = direct ? NULL : malloc(m * sizeof *group);
        for (size_t j = 0; group && j < m; j++)
            group[j] = in.v[idx[j]];
        pctx.entries = group ? group : in.v;
        if (bopts.algorithm == NP_ALG_ASTAR && g.cells > NP_ASTAR_MAX_CELLS) {
            fprintf(stderr, "npuzzle solve: %s:%ld: --algorithm astar handles boards of at most %d "
                            "cells, not %dx%d (use IDA*, the default)\n",
                    in.v[idx[0]].file, in.v[idx[0]].line, NP_ASTAR_MAX_CELLS, r, k);
            if (!direct)
                free(part);
            free(group);
            solve_pdb_close(&pdb);
            rc = EXIT_USAGE;
            break;
        }
        if (pdb.set)
            install_sigbus_handler();
        int brc = np_batch_solve(part, boards, m, &g, &o, &bopts);
        if (pdb.set && brc == NP_OK) {
            /* A table rewritten in place while mapped would have fed the search
             * wrong values: check the files again before trusting the answers. */
            char verr[512] = "";
            int vrc = np_pdbset_verify(pdb.set, verr, sizeof verr);
            if (vrc != NP_OK) {
                fprintf(stderr, "npuzzle solve: %s\n  a table changed while solving; "
                                "answers not trusted (rebuild it with npuzzle gen --force)\n", verr);
                rc = cli_exit_for_pdb_error(vrc);
            }
        }
        if (!direct) {
            for (size_t j = 0; j < m; j++)
                res[idx[j]] = part[j];
            free(part);
        }
        free(group);
        solve_pdb_close(&pdb);
        if (brc != NP_OK) {
            fprintf(stderr, "npuzzle solve: %s\n", np_strerror(brc));
            rc = cli_exit_for_error(brc);
        }
    }
    double wall = np_clock() - t0;
    free(done);
    if (rc != EXIT_OK) {
        free(res);
        free(boards);
        free(idx);
        free(in.v);
        return rc;
    }

    /* Print in input order. */
    FILE *out = stdout;
    int mismatches = 0, limits = 0, errors = 0, solved = 0, unsolvable = 0;
    uint64_t tot_exp = 0, tot_gen = 0;
    double tot_sec = 0;
    record_writer w;
    record_writer_init(&w, out, fmt);
    w.mark_mismatch = check;
    for (size_t i = 0; i < in.n; i++) {
        char idbuf[32];
        w.opt_columns |= in.v[i].meta.opt >= 0;
        record_writer_fit_id(&w, entry_id(&in.v[i], idbuf, sizeof idbuf));
    }
    record_write_header(&w);
    for (size_t i = 0; i < in.n; i++) {
        const entry *e = &in.v[i];
        const np_result *r = &res[i];
        char idbuf[32], size[16];
        snprintf(size, sizeof size, "%dx%d", e->board.rows, e->board.cols);
        record rec;
        record_init(&rec);
        rec.id = entry_id(e, idbuf, sizeof idbuf);
        rec.size = size;
        rec.status = r->status;
        rec.solvable = r->status != NP_STATUS_UNSOLVABLE;
        rec.length = r->length;
        rec.moves = r->moves;
        rec.nodes_expanded = r->expanded;
        rec.nodes_generated = r->generated;
        rec.seconds = r->seconds;
        rec.h0 = r->h0;
        rec.bound = r->bound;
        rec.opt = e->meta.opt;
        if (e->meta.opt >= 0) {
            bool ok = r->status == NP_STATUS_SOLVED && r->length == e->meta.opt;
            if (r->status == NP_STATUS_SOLVED && opts.weight > 1.0)
                ok = r->length >= e->meta.opt && r->length <= opts.weight * e->meta.opt;
            rec.check = ok ? "ok" : "mismatch";
            if (check && !ok)
                mismatches++;
        }
        switch (r->status) {
        case NP_STATUS_SOLVED: solved++; break;
        case NP_STATUS_UNSOLVABLE: unsolvable++; break;
        case NP_STATUS_LIMIT: limits++; break;
        case NP_STATUS_ERROR: errors++; break;
        }
        tot_exp += r->expanded;
        tot_gen += r->generated;
        tot_sec += r->seconds;
        record_write(&w, &rec);
    }
    record_totals totals = {.boards = in.n, .solved = solved, .unsolvable = unsolvable, .limits = limits,
                            .mismatch = mismatches > 0, .expanded = tot_exp, .generated = tot_gen,
                            .search_seconds = tot_sec, .wall_seconds = wall};
    record_write_totals(&w, &totals);
    fflush(out);
    if (!quiet && fmt != RECORD_TEXT && isatty(2))
        fprintf(stderr, "%zu boards: %d solved, %d unsolvable, %d limit; %.3f s wall\n", in.n, solved,
                unsolvable, limits, wall);
    if (mismatches)
        fprintf(stderr, "npuzzle solve: %d board%s did not match opt=\n", mismatches,
                mismatches == 1 ? "" : "s");
    if (limits && !quiet)
        fprintf(stderr, "npuzzle solve: %d board%s reached a limit before a solution\n", limits,
                limits == 1 ? "" : "s");
    if (errors)
        fprintf(stderr, "npuzzle solve: %d board%s failed (internal error)\n", errors, errors == 1 ? "" : "s");
    free(res);
    free(boards);
    free(idx);
    free(in.v);
    if (errors)
        return EXIT_PDB;
    return mismatches || limits ? EXIT_FAIL : EXIT_OK;
}
