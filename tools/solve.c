/* solve.c - the `npuzzle solve` subcommand: read boards, solve them, print results. */
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#ifdef NP_MPI
#include <fcntl.h>

#include "solve_mpi.h"
#endif

#include "boards.h"
#include "checkpoint.h"
#include "cli.h"
#include "npuzzle.h"
#include "record.h"
#include "solve_pdb.h"

void usage_solve(void)
{
#ifdef NP_MPI
    printf("usage: mpirun -np N npuzzle-mpi [solve] [OPTIONS] [FILE...]\n"
           "\n"
           "npuzzle solve over Open MPI: rank 0 reads the boards, prints the results and\n"
           "hands out boards (a single board: its pieces) to every rank, itself included;\n"
           "each rank runs -j threads on its own copy of the tables. Without mpirun, one\n"
           "rank: npuzzle solve itself. The options, input and output are npuzzle solve's\n"
           "(npuzzle(1)):\n"
           "\n");
#else
    printf("usage: npuzzle solve [OPTIONS] [FILE...]\n\n");
#endif
    printf("Solve sliding-tile boards optimally. Boards are read from the FILEs, or from\n"
           "standard input when there is none or FILE is '-': one board per line, its\n"
           "tiles in row-major order separated by spaces or commas, 0 the blank; '#'\n"
           "starts a comment, which may hold id=NAME, opt=N (the known optimal length)\n"
           "and size=RxC. The size follows from size=, from --size (the two must agree)\n"
           "or from the count (9, 16, 25, ...: a square board). If any line\n"
           "is malformed, nothing is solved: the first 20 bad lines are reported as\n"
           "FILE:LINE with the field at fault, and the others counted.\n"
           "\n"
           "options:\n"
           "  -H, --heuristic H    md (Manhattan), lc (linear conflict) or pdb (pattern\n"
           "                       databases; the default for IDA* when its files exist,\n"
           "                       else lc; A* takes md or lc, by default lc)\n"
           "      --partition NAME PDB partition (default: 8:4-4, 15:7-8 or 24:6-6-6-6),\n"
           "                       or its tiles, such as 1,2,3,4/5,6,7,8\n"
           "      --pdb-dir DIR    where PDB files are (default $NPUZZLE_PDB_DIR, else\n"
           "                       $XDG_CACHE_HOME/npuzzle or ~/.cache/npuzzle)\n"
           "      --gen            build missing PDB files first (npuzzle gen)\n"
           "      --no-reflect     do not max the PDB sum with the reflected lookup\n"
           "      --dual           also the dual lookups (of the inverse permutation, in\n"
           "                       their admissible form) with bidirectional pathmax: fewer\n"
           "                       nodes, more time; uses the tables npuzzle gen --dual\n"
           "                       builds (--gen builds them)\n"
           "      --zero-aware     look up the zero-aware tables (npuzzle gen --zero-aware;\n"
           "                       --gen builds them): each pattern's moves for the region\n"
           "                       its tiles leave the blank in, not the least over them;\n"
           "                       fewer nodes and less time. By default they are used when\n"
           "                       all of the partition's exist; with --dual, each dual\n"
           "                       table too where its zero-aware form exists\n"
           "      --no-zero-aware  look up the plain tables even where zero-aware ones exist\n");
    printf("      --pdb-private    look tables up in a private copy on huge pages instead\n"
           "                       of the shared read-only mapping (costs start-up time\n"
           "                       and memory per process; helps when the mapping cannot\n"
           "                       use huge pages)\n"
           "      --verify-tables  hash every table on open and again after the run; by\n"
           "                       default a table verified before (DIR/.npuzzle-verified)\n"
           "                       and not written to since, nor in the last 15 minutes,\n"
           "                       is not read again\n"
           "      --prune P        IDA*'s duplicate pruning: fsm (the default: every move\n"
           "                       sequence of up to 14 moves that a shorter or earlier\n"
           "                       equivalent one replaces, by a finite-state machine;\n"
           "                       Taylor & Korf 1993), fsm12 (the same over 12 moves, the\n"
           "                       default of earlier versions: their counts and\n"
           "                       checkpoints) or parent (only the move undoing the\n"
           "                       last one)\n"
           "      --reproduce kf2002  the search of Korf & Felner 2002, whose node counts it\n"
           "                       reproduces: IDA* with the PDBs (7-8 or 6-6-6-6 by\n"
           "                       default) maxed with the reflected lookup, parent pruning\n"
           "  -a, --algorithm A    ida (default; also idastar) or astar (boards of at most\n"
           "                       16 cells)\n"
           "  -w, --weight W       weighted search, f = g + W*h (1 <= W <= 100; W taken\n"
           "                       to a thousandth, A*: a tenth, rounded down): the\n"
           "                       length is at most W times the optimal one (a path\n"
           "                       reaching 1000 moves stops the search: a limit)\n"
           "      --size RxC       board size (for non-square boards whose lines do not\n"
           "                       say size=RxC)\n"
           "      --goal G         blank-first (default: 0 1 2 ... N-1) or blank-last\n"
           "  -j, --jobs N         threads, 1..1024 (default: all cores or OMP_NUM_THREADS):\n"
           "                       boards one to a thread, or one after the other with\n"
           "                       each board's search split over all threads (--batch)\n"
           "      --batch MODE     how boards share the threads (IDA*): auto (the default:\n"
           "                       one after the other, each on all threads, for boards of\n"
           "                       25 cells or more or fewer boards than threads; else one\n"
           "                       to a thread), parallel (one to a thread) or\n"
           "                       one-at-a-time\n"
           "  -f, --format F       text (default), json (one object per line) or csv\n"
           "  -c, --check          compare each answer with opt= (mismatch: exit 1; a board\n"
           "                       a limit stopped has none to compare)\n"
           "      --max-nodes N    give up on a board after N generated nodes (IDA*: it is\n"
           "                       solved only if the serial search needs at most N; one\n"
           "                       board on several threads counts every thread's nodes;\n"
           "                       0, the default: no limit)\n"
           "      --timeout S      give up on a board after S seconds (0: no limit)\n"
           "      --max-memory B   memory A* may use, shared by the boards solved side by\n"
           "                       side (bytes, K/M/G/T suffix; default: 3/4 of the\n"
           "                       available memory); the input's boards and their\n"
           "                       answers (about 1.3 KiB each) must fit in B too\n"
           "                       (default: in the available memory), else the run is\n"
           "                       refused\n");
    printf("      --checkpoint FILE  keep where the run stands in FILE (finished boards,\n"
           "                       the bound and finished pieces of boards in progress);\n"
           "                       a run killed, or stopped by SIGINT, SIGTERM or\n"
           "                       SIGHUP, and started again with the same command\n"
           "                       continues from it with the same answers and counts.\n"
           "                       A FILE made for other boards, options or tables is\n"
           "                       refused, and so is one that another run holds\n"
           "                       (FILE.lock)\n"
           "      --checkpoint-every S  write FILE at most every S seconds while searching\n"
           "                       (default 1; 0: after every finished piece; only with\n"
           "                       --checkpoint)\n"
           "      --piece-nodes N  a board's search split over threads or ranks, or kept\n"
           "                       in FILE, goes by pieces: a long iteration is cut into\n"
           "                       about one piece for N of its nodes (default 2^30, half\n"
           "                       a minute of a core on the 24-puzzle), at least 64 a\n"
           "                       thread where the tree is that wide; a resumed\n"
           "                       iteration cut into fewer is cut again, its finished\n"
           "                       pieces kept, so that a stop loses little, and so is\n"
           "                       one whose stop cut a piece short after 4N nodes.\n"
           "                       The answers and counts do not change\n"
           "      --shard K/N      solve only every N-th board, starting with the K-th\n"
           "                       (1 <= K <= N; for job arrays: the outputs of the N\n"
           "                       shards, concatenated, pass npuzzle verify --boards)\n"
           "      --progress       report each finished board on standard error (and, for\n"
           "                       boards solved one at a time, each finished iteration:\n"
           "                       the next bound, nodes, rate, time; within a long\n"
           "                       iteration on several threads or with --checkpoint,\n"
           "                       the pieces searched so far; on a terminal, always)\n"
           "      --progress-every S  a pieces line every S seconds, also while no piece\n"
           "                       ends (default 60; 0: after every finished piece and\n"
           "                       ten times a second; on a terminal, in place, every\n"
           "                       half second at most)\n"
           "  -q, --quiet          no progress, summary, notes (tables missing and the\n"
           "                       heuristic taken instead, limits reached) or --gen report\n"
           "                       on standard error (errors and mismatches still)\n"
           "  -h, --help           this text\n"
           "\n"
           "Output per board: id (line number unless id= is given), size, status\n"
           "(solved, unsolvable, limit), solvable (json, csv), length, moves (the\n"
           "directions the blank moves: U D L R), nodes expanded and generated, seconds,\n"
           "h0 (start heuristic), opt where opt= is known and (json, csv) check: ok or\n"
           "mismatch, for a board with an answer; text shows the status MISMATCH for a\n"
           "solved board whose --check failed.\n"
           "\n"
           "exit codes: 0 all solved (an unsolvable board answered as such counts),\n"
           "1 a --check mismatch or a limit reached, 2 bad usage or input, 3 PDB or I/O\n"
           "error (a full disk under the output too), 130 interrupted by SIGINT, SIGTERM\n"
           "or SIGHUP while --gen builds tables or with --checkpoint (the checkpoint is\n"
           "written first).\n");
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
    boards_errors bad; /* malformed lines seen, across the files */
    size_t seen;       /* boards read, across the files (those not kept too) */
    size_t shard_k;    /* --shard K/N: keep the boards K, K+N, ... (from 1); */
    size_t shard_n;    /*   0: every board */
    uint64_t limit;    /* bytes the boards kept and their answers may take (0: no limit) */
    bool limit_given;  /* that is --max-memory (else the memory available) */
} input;

/* The bytes a board kept takes, its answer to come included. */
#define BOARD_BYTES (sizeof(entry) + sizeof(np_result) + sizeof(np_board) + sizeof(size_t) + 1)

/* Keep board e (unless --shard leaves it to another run). @return 0, -1 out
 * of memory, -2 over in->limit (nothing said). */
static int input_push(input *in, const entry *e)
{
    const size_t k = in->seen++;
    if (in->shard_n && k % in->shard_n != in->shard_k - 1)
        return 0;
    if (in->limit && (double)(in->n + 1) * (double)BOARD_BYTES > (double)in->limit)
        return -2;
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

/* Read every board of the file `path` ('-': standard input); report each
 * malformed line as FILE:LINE. @return EXIT_OK or EXIT_PDB (cannot be opened
 * or read; no memory). */
static int read_boards(input *in, const char *path, int rows, int cols)
{
    boards_reader r;
    if (boards_open(&r, path, "solve") != 0)
        return EXIT_PDB;
    int rc = EXIT_OK, got;
    entry e;
    while ((got = boards_next(&r, rows, cols, &e.board, &e.meta, &in->bad)) == 1) {
        e.file = r.name;
        e.line = r.lineno;
        const int pushed = input_push(in, &e);
        if (pushed == -2) {
            char b1[32];
            fprintf(stderr,
                    "npuzzle solve: %s:%ld: at board %zu, the boards and their answers (about "
                    "%zu bytes a board) need more than the %s %s; solve them in parts "
                    "(--shard K/N, or split the input)\n",
                    r.name, r.lineno, in->n + 1, BOARD_BYTES,
                    np_format_bytes(b1, sizeof b1, in->limit),
                    in->limit_given ? "--max-memory allows" : "available");
            rc = EXIT_PDB;
            break;
        }
        if (pushed != 0) {
            fprintf(stderr, "npuzzle solve: out of memory reading %s\n", r.name);
            rc = EXIT_PDB;
            break;
        }
    }
    if (got < 0) {
        boards_read_error(&r, "solve");
        rc = EXIT_PDB;
    }
    boards_close(&r);
    return rc;
}

static const char *entry_id(const entry *e, char *buf, size_t len)
{
    return record_board_id(&e->meta, e->line, buf, len);
}

/* Set by SIGINT, SIGTERM and SIGHUP under --checkpoint: the searches stop (their
 * cancel flag) and the run writes its checkpoint and exits. */
static volatile int interrupted;

static void on_interrupt(int sig)
{
    (void)sig;
    interrupted = 1;
}

/* SIGINT, SIGTERM and SIGHUP (a closed terminal; left alone when ignored, as
 * under nohup) set `interrupted` (flags: SA_RESTART, and SA_RESETHAND for a
 * second signal to end the run at once). */
static void catch_interrupts(int flags)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_interrupt;
    sa.sa_flags = flags;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    struct sigaction hup;
    if (sigaction(SIGHUP, NULL, &hup) == 0 && hup.sa_handler != SIG_IGN)
        sigaction(SIGHUP, &sa, NULL);
}

typedef struct progress_ctx {
    const entry *entries;
    bool tty, show;
    checkpoint *ck;
    const size_t *idx;       /* the input's index of each board of the batch */
    bool iterations;         /* report each finished iteration (boards one at a time) */
    np_journal iter_journal; /* for that, without a checkpoint */
    double t0;               /* when the board's search started */
    uint64_t base_nodes;     /* nodes its earlier runs generated (a checkpoint's) */
    size_t current, total;   /* that board (its index in the batch), of how many */
    bool mpi;                /* npuzzle-mpi: boards go to ranks */
    bool refused;            /* the search refused a state the checkpoint gave (solve_group) */
    bool retrying;           /* those boards searched again, from their start (solve_all) */
    double every;            /* least seconds between piece lines (--progress-every,
                              * at most half a second on a terminal) */
    double last_line;        /* when the board's last progress line was written */
    double iter_t0;          /* when this run began the board's current iteration */
    uint64_t run_nodes;      /* generated in its pieces this run finished (the rate) */
    bool have_running;       /* the search told how many nodes it generated so far: */
    uint64_t run_generated;  /*   these, in its pieces finished or running (the rate), */
    double running_at;       /*   then */
    int piece_bound;         /* without a checkpoint: the iteration whose pieces */
    size_t piece_npieces;    /*   are counted here, */
    size_t pieces_done;      /*   how many of them finished */
    uint64_t piece_nodes;    /*   and their nodes */
} progress_ctx;

/* The board's name before a progress line, when the batch has several. */
static const char *progress_board(const progress_ctx *p, char *buf, size_t len)
{
    buf[0] = '\0';
    if (p->total > 1) {
        char idbuf[32];
        snprintf(buf, len, "[%zu/%zu] %s: ", p->current + 1, p->total,
                 entry_id(&p->entries[p->current], idbuf, sizeof idbuf));
    }
    return buf;
}

/* One board's search finished an iteration: the next bound, the nodes so far,
 * the rate and the time, in place on a terminal, a line each otherwise. */
static void on_iteration(void *ctx, const np_iteration *next)
{
    progress_ctx *p = ctx;
    if (!p->iterations || next->depth != 0)
        return; /* boards side by side: their lines would interleave; or a
                 * stopped iteration's list cut again: no new iteration */
    p->last_line = p->iter_t0 = np_clock();
    p->run_nodes = 0;
    double dt = p->last_line - p->t0;
    /* the rate of this run: without the nodes of a checkpoint's earlier runs */
    double nodes = (double)(next->generated + next->extra) - (double)p->base_nodes;
    char board[64];
    fprintf(stderr, "%s%sbound %d next; %llu nodes generated, %.1f M nodes/s, %.1f s%s",
            p->tty ? "\r\033[K" : "npuzzle solve: ", progress_board(p, board, sizeof board),
            next->bound, (unsigned long long)next->generated, dt > 0 ? nodes / dt / 1e6 : 0.0, dt,
            p->tty ? "" : "\n");
}

/* Within a long iteration `it`, of whose pieces `done` finished (in all runs)
 * with `nodes` generated in them: a line at most every p->every seconds, where
 * the iteration stands, the nodes so far, the rate and the time. The rate is
 * this run's: every node it generated (pieces still running included) over
 * its time, as the search last told (report_running); before that, the
 * pieces this run finished in this iteration over the time since it began
 * it. */
static void pieces_line(progress_ctx *p, const np_iteration *it, size_t done, uint64_t nodes)
{
    double now = np_clock();
    if (now - p->last_line < p->every)
        return;
    p->last_line = now;
    double dt = now - p->t0, di = now - p->iter_t0, dr = p->running_at - p->t0;
    /* the search's count starts from a checkpoint's: this run's are those after */
    double ran = (double)p->run_generated - (double)p->base_nodes;
    double rate = p->have_running ? (dr > 0 && ran > 0 ? ran / dr : 0.0)
                                  : (di > 0 ? (double)p->run_nodes / di : 0.0);
    char board[64];
    fprintf(stderr,
            "%s%sbound %d: %zu of %zu pieces searched; %llu nodes generated, %.1f M nodes/s, "
            "%.1f s%s",
            p->tty ? "\r\033[K" : "npuzzle solve: ", progress_board(p, board, sizeof board),
            it->bound, done, it->npieces,
            (unsigned long long)it->generated + (unsigned long long)nodes, rate / 1e6, dt,
            p->tty ? "" : "\n");
}

/* A piece of the board's iteration `it` finished: `done` of its pieces have
 * (in all runs), with `nodes` generated in them (pieces_line). Also the
 * checkpoint's observer of pieces, which counts those of earlier runs. */
static void report_piece(void *ctx, const np_iteration *it, size_t done, uint64_t nodes,
                         const np_piece *pc)
{
    progress_ctx *p = ctx;
    if (!p->iterations)
        return;
    /* A piece carried over to a list cut again was searched already; such
     * pieces come one after the other as the list is cut (at a resume or a
     * stop), and a line among them would count only some of them. */
    if (pc->span)
        return;
    p->run_nodes += pc->generated;
    pieces_line(p, it, done, nodes);
}

/* The search, within iteration `it` (`done` of its pieces finished, `nodes`
 * generated in them), has `generated` nodes so far (a checkpoint's earlier
 * runs' and this run's, in its pieces running too): a line even while no
 * piece ends (huge pieces run for hours on the hardest boards), with this
 * run's rate. Also the checkpoint's observer. */
static void report_running(void *ctx, const np_iteration *it, size_t done, uint64_t nodes,
                           uint64_t generated)
{
    progress_ctx *p = ctx;
    if (!p->iterations)
        return;
    p->have_running = true;
    p->run_generated = generated;
    p->running_at = np_clock();
    pieces_line(p, it, done, nodes);
}

/* Without a checkpoint the pieces are counted here, per iteration: from 0
 * again when `it` is another one than they were counted for. */
static void count_pieces_of(progress_ctx *p, const np_iteration *it)
{
    if (it->bound != p->piece_bound || it->npieces != p->piece_npieces) {
        p->piece_bound = it->bound;
        p->piece_npieces = it->npieces;
        p->pieces_done = 0;
        p->piece_nodes = 0;
    }
}

/* A finished piece, without a checkpoint. */
static void on_piece(void *ctx, const np_iteration *it, const np_piece *pc)
{
    progress_ctx *p = ctx;
    count_pieces_of(p, it);
    p->pieces_done += np_piece_count(pc);
    p->piece_nodes += pc->generated;
    report_piece(p, it, p->pieces_done, p->piece_nodes, pc);
}

/* How often to ask the search for its running count: four times between two
 * lines (a line is due at most an interval after the last one, whenever a
 * piece ended in between), once a second at least, and ten times a second
 * when a line is due at every piece. */
static double running_every(double every)
{
    return every <= 0 ? 0.1 : every / 4 < 1.0 ? every / 4 : 1.0;
}

/* The search's running count, without a checkpoint (report_running). */
static void on_running(void *ctx, const np_iteration *it, uint64_t generated)
{
    progress_ctx *p = ctx;
    count_pieces_of(p, it);
    report_running(p, it, p->pieces_done, p->piece_nodes, generated);
}

static void on_prepare(void *ctx, size_t index, np_search_opts *opts)
{
    progress_ctx *p = ctx;
    if (p->iterations) {
        /* boards one at a time: no other thread writes these */
        p->t0 = p->last_line = p->iter_t0 = np_clock();
        p->current = index;
        p->run_nodes = 0;
        p->base_nodes = 0;
        p->piece_bound = -1;
        p->have_running = false;
    }
    if (p->ck) {
        checkpoint_prepare(p->ck, p->idx[index], opts);
        if (p->iterations)
            p->base_nodes = checkpoint_resumed_nodes(p->ck, p->idx[index]);
    } else if (p->iterations)
        opts->journal = &p->iter_journal;
}

static void on_progress(void *ctx, size_t index, size_t done, size_t total, const np_result *r)
{
    const progress_ctx *p = ctx;
    /* A board stopped by an interrupt is not finished: its checkpoint holds
     * where it stood. Nor is one that failed (out of memory, a resumed state
     * refused), which checkpoint_finish does not record as an answer: the
     * next run tries it again. */
    if (p->ck && !(interrupted && r->status == NP_STATUS_LIMIT))
        checkpoint_finish(p->ck, p->idx[index], (np_result *)r);
    if (!p->show)
        return;
    /* After an interrupt the boards left come back stopped: those that had
     * searched are shown as interrupted, those that had not, not at all. */
    const bool stopped = interrupted && r->status == NP_STATUS_LIMIT;
    char idbuf[32];
    const char *id = entry_id(&p->entries[index], idbuf, sizeof idbuf);
    const char *what = stopped ? "interrupted" : np_status_name(r->status);
    if (!(stopped && r->generated == 0)) { /* (a board not begun: nothing) */
        if (p->tty)
            fprintf(stderr, "\r\033[K[%zu/%zu] %s: %s", done, total, id, what);
        else if (r->length >= 0)
            fprintf(stderr, "[%zu/%zu] %s: %s, length %d, %.3f s\n", done, total, id, what,
                    r->length, r->seconds);
        else
            fprintf(stderr, "[%zu/%zu] %s: %s, %.3f s\n", done, total, id, what, r->seconds);
    }
    if (p->tty && done == total)
        fputs("\r\033[K", stderr);
}

/* What the options ask for. */
typedef struct solve_args {
    np_search_opts opts; /* the search; heuristic chosen per board size when not given */
    np_batch_opts bopts; /* algorithm; threads and progress are set when solving */
    bool heuristic_given, check, progress, quiet, gen;
    bool shared_map;    /* look the tables up in the shared mapping (not --pdb-private) */
    bool verify_tables; /* hash every table on open and after the run (--verify-tables) */
    int zero_aware;     /* the zero-aware tables: 1 insist (--zero-aware), 0 never
                         * (--no-zero-aware, --reproduce), -1 when they all exist */
    const char *partition, *pdb_dir_opt;
    int rows, cols, jobs; /* 0: not given */
    np_goal goal;
    record_format fmt;
    const char *checkpoint; /* --checkpoint FILE, or NULL */
    bool reproduce;         /* --reproduce kf2002 */
    double checkpoint_every;
    bool checkpoint_every_given;
    double progress_every; /* --progress-every */
    int shard_k, shard_n;  /* --shard K/N; 0/0: every board */
    char **files;          /* the FILE arguments; none: standard input */
    int nfiles;
} solve_args;

/* The option that takes the search off optimal IDA* with pattern databases
 * (which --reproduce and --dual need), or NULL. */
static const char *optimal_pdb_clash(const solve_args *a)
{
    return a->heuristic_given && a->opts.heuristic != NP_H_PDB ? "-H md or lc"
        : a->bopts.algorithm == NP_ALG_ASTAR                   ? "--algorithm astar"
        : a->opts.weight > 1.0                                 ? "--weight"
                                                               : NULL;
}

/* Parse the command line into `a`. @return EXIT_OK, EXIT_USAGE (reported), or
 * -1 when --help printed the usage. */
static int parse_args(solve_args *a, int argc, char **argv)
{
    static const struct option longopts[] = {
        {"heuristic", required_argument, NULL, 'H'},
        {"partition", required_argument, NULL, 'P'},
        {"pdb-dir", required_argument, NULL, 'D'},
        {"gen", no_argument, NULL, 'G'},
        {"no-reflect", no_argument, NULL, 'R'},
        {"dual", no_argument, NULL, 'L'},
        {"zero-aware", no_argument, NULL, 'Z'},
        {"no-zero-aware", no_argument, NULL, 'z'},
        {"pdb-private", no_argument, NULL, 'S'},
        {"verify-tables", no_argument, NULL, 'V'},
        {"batch", required_argument, NULL, 'O'},
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
        {"checkpoint", required_argument, NULL, 'K'},
        {"prune", required_argument, NULL, 'U'},
        {"reproduce", required_argument, NULL, 'Y'},
        {"checkpoint-every", required_argument, NULL, 'E'},
        {"piece-nodes", required_argument, NULL, 'Q'},
        {"progress-every", required_argument, NULL, 'W'},
        {"shard", required_argument, NULL, 'X'},
        {"quiet", no_argument, NULL, 'q'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    *a = (solve_args){.shared_map = true,
                      .zero_aware = -1,
                      .goal = NP_GOAL_BLANK_FIRST,
                      .fmt = RECORD_TEXT,
                      .checkpoint_every = 1.0,
                      .progress_every = 60.0};
    uint64_t u;
    int c;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":H:a:w:j:f:cqh", longopts, NULL)) != -1) {
        switch (c) {
        case 'H':
            if (np_hkind_parse(&a->opts.heuristic, optarg) != NP_OK) {
                fprintf(stderr, "npuzzle solve: unknown heuristic '%s' (md, lc or pdb)\n", optarg);
                return EXIT_USAGE;
            }
            a->heuristic_given = true;
            break;
        case 'P':
            /* written to checkpoints on one line: no line breaks or other controls */
            for (const char *q = optarg; *q; q++)
                if ((unsigned char)*q < 0x20 || *q == 0x7f) {
                    fprintf(stderr,
                            "npuzzle solve: --partition: byte %d holds a control character "
                            "(0x%02x)\n",
                            (int)(q - optarg) + 1, (unsigned char)*q);
                    return EXIT_USAGE;
                }
            a->partition = optarg;
            break;
        case 'D':
            if (!(a->pdb_dir_opt = cli_pdb_dir_option("solve", optarg)))
                return EXIT_USAGE;
            break;
        case 'G': a->gen = true; break;
        case 'R': a->opts.no_reflect = true; break;
        case 'L': a->opts.dual = true; break;
        case 'Z': a->zero_aware = 1; break;
        case 'z': a->zero_aware = 0; break;
        case 'S': a->shared_map = false; break;
        case 'V': a->verify_tables = true; break;
        case 'O':
            if (!strcmp(optarg, "auto"))
                a->bopts.mode = NP_BATCH_AUTO;
            else if (!strcmp(optarg, "parallel"))
                a->bopts.mode = NP_BATCH_PARALLEL;
            else if (!strcmp(optarg, "one-at-a-time"))
                a->bopts.mode = NP_BATCH_ONE_AT_A_TIME;
            else {
                fprintf(stderr,
                        "npuzzle solve: unknown --batch '%s' (auto, parallel or one-at-a-time)\n",
                        optarg);
                return EXIT_USAGE;
            }
            break;
        case 'a':
            if (!strcmp(optarg, "ida") || !strcmp(optarg, "idastar"))
                a->bopts.algorithm = NP_ALG_IDA;
            else if (!strcmp(optarg, "astar"))
                a->bopts.algorithm = NP_ALG_ASTAR;
            else {
                fprintf(stderr, "npuzzle solve: unknown algorithm '%s' (ida or astar)\n", optarg);
                return EXIT_USAGE;
            }
            break;
        case 'w':
            if (!cli_parse_double("solve", "--weight", optarg, &a->opts.weight))
                return EXIT_USAGE;
            if (!(a->opts.weight >= 1.0 && a->opts.weight <= NP_MAX_WEIGHT)) {
                fprintf(stderr, "npuzzle solve: --weight must be between 1 and 100, not '%s'\n",
                        optarg);
                return EXIT_USAGE;
            }
            break;
        case 's':
            if (!cli_parse_size(optarg, &a->rows, &a->cols)) {
                fprintf(stderr, "npuzzle solve: bad --size '%s' (RxC, each side %d..%d)\n", optarg,
                        NP_MIN_SIDE, NP_MAX_SIDE);
                return EXIT_USAGE;
            }
            break;
        case 'g':
            if (np_goal_parse(&a->goal, optarg) != NP_OK) {
                fprintf(stderr, "npuzzle solve: unknown goal '%s' (blank-first or blank-last)\n",
                        optarg);
                return EXIT_USAGE;
            }
            break;
        case 'j':
            if (!cli_parse_u64("solve", "-j", optarg, &u))
                return EXIT_USAGE;
            if (u < 1 || u > CLI_MAX_THREADS) {
                fprintf(stderr, "npuzzle solve: -j must be between 1 and %d, not '%s'\n",
                        CLI_MAX_THREADS, optarg);
                return EXIT_USAGE;
            }
            a->jobs = (int)u;
            break;
        case 'f':
            if (!strcmp(optarg, "text"))
                a->fmt = RECORD_TEXT;
            else if (!strcmp(optarg, "json"))
                a->fmt = RECORD_JSON;
            else if (!strcmp(optarg, "csv"))
                a->fmt = RECORD_CSV;
            else {
                fprintf(stderr, "npuzzle solve: unknown format '%s' (text, json or csv)\n", optarg);
                return EXIT_USAGE;
            }
            break;
        case 'c': a->check = true; break;
        case 'N':
            if (!cli_parse_u64("solve", "--max-nodes", optarg, &a->opts.max_nodes))
                return EXIT_USAGE;
            break;
        case 'Q':
            if (!cli_parse_u64("solve", "--piece-nodes", optarg, &a->opts.piece_nodes))
                return EXIT_USAGE;
            if (!a->opts.piece_nodes) {
                fprintf(stderr, "npuzzle solve: --piece-nodes must be at least 1, not '%s'\n",
                        optarg);
                return EXIT_USAGE;
            }
            break;
        case 'T':
            if (!cli_parse_double("solve", "--timeout", optarg, &a->opts.timeout))
                return EXIT_USAGE;
            break;
        case 'M':
            if (!cli_parse_bytes("solve", "--max-memory", optarg, &a->opts.max_memory))
                return EXIT_USAGE;
            break;
        case 'p': a->progress = true; break;
        case 'K':
            if (!*optarg) {
                fprintf(stderr, "npuzzle solve: --checkpoint needs a file name, not ''\n");
                return EXIT_USAGE;
            }
            a->checkpoint = optarg;
            break;
        case 'Y':
            if (strcmp(optarg, "kf2002") != 0) {
                fprintf(stderr, "npuzzle solve: unknown --reproduce '%s' (kf2002)\n", optarg);
                return EXIT_USAGE;
            }
            a->reproduce = true;
            break;
        case 'U':
            if (!strcmp(optarg, "parent"))
                a->opts.prune = NP_PRUNE_PARENT;
            else if (!strcmp(optarg, "fsm"))
                a->opts.prune = NP_PRUNE_FSM;
            else if (!strcmp(optarg, "fsm12"))
                a->opts.prune = NP_PRUNE_FSM12;
            else {
                fprintf(stderr, "npuzzle solve: unknown --prune '%s' (parent, fsm or fsm12)\n",
                        optarg);
                return EXIT_USAGE;
            }
            break;
        case 'E':
            if (!cli_parse_double("solve", "--checkpoint-every", optarg, &a->checkpoint_every))
                return EXIT_USAGE;
            if (a->checkpoint_every < 0) {
                fprintf(stderr, "npuzzle solve: --checkpoint-every must be >= 0, not '%s'\n",
                        optarg);
                return EXIT_USAGE;
            }
            a->checkpoint_every_given = true;
            break;
        case 'W':
            if (!cli_parse_double("solve", "--progress-every", optarg, &a->progress_every))
                return EXIT_USAGE; /* a negative number too */
            break;
        case 'X': {
            /* digits only, each number at most 9 of them (no sign, no wrap-around) */
            const char *slash = strchr(optarg, '/');
            size_t kl = slash ? (size_t)(slash - optarg) : 0, nl = slash ? strlen(slash + 1) : 0;
            long k = 0, n = 0;
            if (slash && kl >= 1 && kl <= 9 && nl >= 1 && nl <= 9 &&
                strspn(optarg, "0123456789") == kl && strspn(slash + 1, "0123456789") == nl) {
                k = strtol(optarg, NULL, 10);
                n = strtol(slash + 1, NULL, 10);
            }
            if (n < 1 || k < 1 || k > n) {
                fprintf(stderr,
                        "npuzzle solve: --shard: '%s' is not K/N with 1 <= K <= N <= 999999999\n",
                        optarg);
                return EXIT_USAGE;
            }
            a->shard_k = (int)k;
            a->shard_n = (int)n;
            break;
        }
        case 'q': a->quiet = true; break;
        case 'h': usage_solve(); return -1;
        default: return cli_option_error("solve", c, argv, longopts);
        }
    }
    if (a->reproduce) {
        /* Korf & Felner 2002: additive PDBs maxed with the reflected lookup,
         * only the move undoing the last one pruned, Korf's move order. */
        const char *clash = a->opts.prune == NP_PRUNE_FSM ? "--prune fsm"
            : a->opts.prune == NP_PRUNE_FSM12             ? "--prune fsm12"
            : a->opts.no_reflect                          ? "--no-reflect"
            : a->opts.dual                                ? "--dual"
            : a->zero_aware == 1                          ? "--zero-aware"
                                                          : optimal_pdb_clash(a);
        if (clash) {
            fprintf(stderr,
                    "npuzzle solve: --reproduce kf2002 is IDA* with PDBs, the reflected lookup "
                    "and parent pruning; %s changes that\n",
                    clash);
            return EXIT_USAGE;
        }
        a->opts.prune = NP_PRUNE_PARENT;
        a->opts.heuristic = NP_H_PDB;
        a->heuristic_given = true;
        a->zero_aware = 0; /* the paper's tables */
    }
    /* Options of a search that this one is not: refused, not ignored (a
     * misspelt --partition went unnoticed under -H md). */
    const char *astar = a->bopts.algorithm == NP_ALG_ASTAR ? "--algorithm astar" : NULL;
    const char *no_tables = astar                             ? astar
        : a->heuristic_given && a->opts.heuristic != NP_H_PDB ? "-H md or lc"
                                                              : NULL;
    const char *tables_option = a->partition ? "--partition"
        : a->gen                             ? "--gen"
        : a->opts.no_reflect                 ? "--no-reflect"
        : a->zero_aware == 1                 ? "--zero-aware"
        : a->pdb_dir_opt                     ? "--pdb-dir"
        : a->verify_tables                   ? "--verify-tables"
        : !a->shared_map                     ? "--pdb-private"
                                             : NULL;
    if (no_tables && tables_option) {
        fprintf(stderr, "npuzzle solve: %s is for pattern databases; %s looks none up\n",
                tables_option, no_tables);
        return EXIT_USAGE;
    }
    if (a->checkpoint_every_given && !a->checkpoint) {
        fprintf(stderr,
                "npuzzle solve: --checkpoint-every is how often --checkpoint FILE is "
                "written; give --checkpoint too\n");
        return EXIT_USAGE;
    }
    if (astar && a->bopts.mode == NP_BATCH_ONE_AT_A_TIME) {
        /* (np_batch_solve runs A* boards side by side, whatever the mode) */
        fprintf(stderr,
                "npuzzle solve: --batch one-at-a-time is for IDA*, which splits a board's "
                "search over the threads; --algorithm astar solves its boards side by side\n");
        return EXIT_USAGE;
    }
    if (astar && a->opts.prune != NP_PRUNE_DEFAULT) {
        fprintf(stderr,
                "npuzzle solve: --prune is for IDA*; --algorithm astar keeps the boards it "
                "has seen instead\n");
        return EXIT_USAGE;
    }
    if (a->opts.prune == NP_PRUNE_DEFAULT)
        a->opts.prune = NP_PRUNE_FSM; /* fewer nodes on every board size measured */
    if (a->bopts.algorithm == NP_ALG_ASTAR && a->opts.heuristic == NP_H_PDB) {
        fprintf(stderr, "npuzzle solve: --algorithm astar works with -H md or lc\n");
        return EXIT_USAGE;
    }
    /* A* takes no tables: without -H, the stronger of md and lc */
    if (a->bopts.algorithm == NP_ALG_ASTAR && !a->heuristic_given)
        a->opts.heuristic = NP_H_LC;
    if (a->opts.dual) {
        /* the dual lookups are PDB lookups of optimal IDA* */
        const char *clash = optimal_pdb_clash(a);
        if (clash) {
            fprintf(stderr,
                    "npuzzle solve: --dual adds lookups to optimal IDA* with pattern databases; "
                    "it does not go with %s\n",
                    clash);
            return EXIT_USAGE;
        }
    }
    a->files = argv + optind;
    a->nfiles = argc - optind;
    return EXIT_OK;
}

/* For qsort: entries by their ids, then by input position. */
static int by_id(const void *pa, const void *pb)
{
    const entry *a = *(const entry *const *)pa, *b = *(const entry *const *)pb;
    char ia[32], ib[32];
    int c = strcmp(entry_id(a, ia, sizeof ia), entry_id(b, ib, sizeof ib));
    return c ? c : a < b ? -1 : a > b;
}

/* Say which ids more than one board has (as npuzzle verify pairs answers
 * with boards by id, it refuses such a pair of files): the first five, then
 * how many more. Two files' boards with no id= share their line numbers. */
static void note_shared_ids(const input *in)
{
    /* the usual case, one file without id=: line numbers, all different (a
     * file's name is its argument's, so one given twice is two files here) */
    size_t plain = 0;
    while (plain < in->n && !in->v[plain].meta.id[0] && in->v[plain].file == in->v[0].file)
        plain++;
    if (plain == in->n)
        return;
    /* NOLINTNEXTLINE(bugprone-sizeof-expression): pointers, sizeof(entry *) is meant */
    const entry **v = malloc((in->n ? in->n : 1) * sizeof *v);
    if (!v)
        return; /* only a note */
    for (size_t i = 0; i < in->n; i++)
        v[i] = &in->v[i];
    qsort(v, in->n, sizeof *v, by_id); /* NOLINT(bugprone-sizeof-expression): as above */
    size_t shared = 0;
    for (size_t i = 1; i < in->n; i++) {
        char ba[32], bb[32], bc[32];
        const char *a = entry_id(v[i - 1], ba, sizeof ba), *b = entry_id(v[i], bb, sizeof bb);
        if (strcmp(a, b) != 0 || (i >= 2 && !strcmp(entry_id(v[i - 2], bc, sizeof bc), a)))
            continue; /* a new id, or the third board of one already said */
        if (++shared <= 5)
            fprintf(stderr,
                    "npuzzle solve: note: id %s is given to more than one board (%s:%ld and "
                    "%s:%ld); npuzzle verify pairs answers by id and refuses that\n",
                    a, v[i - 1]->file, v[i - 1]->line, v[i]->file, v[i]->line);
    }
    if (shared > 5)
        fprintf(stderr, "npuzzle solve: note: ... and %zu more ids given to more than one board\n",
                shared - 5);
    free(v);
}

/* The memory the boards kept and their answers take: BOARD_BYTES each (the
 * input's entry, a result of about 1 KiB with its moves, the batch's copy of
 * the board and its place), which input_push held the input to; where the
 * input mixes board sizes, each size's batch has its own results and entries
 * too, measured here against the same limit (in->limit). @return EXIT_OK when
 * that fits, else EXIT_PDB, said. */
static int answers_fit(const input *in)
{
    bool mixed = false;
    for (size_t i = 1; i < in->n && !mixed; i++)
        mixed = in->v[i].board.rows != in->v[0].board.rows ||
            in->v[i].board.cols != in->v[0].board.cols;
    if (!mixed) /* input_push measured it already */
        return EXIT_OK;
    const double each = (double)(BOARD_BYTES + sizeof(np_result) + sizeof(entry));
    const double need = each * (double)in->n;
    if (!in->limit || need <= (double)in->limit)
        return EXIT_OK;
    char b1[32], b2[32];
    fprintf(stderr,
            "npuzzle solve: %zu boards and their answers need %s, more than the %s %s; "
            "solve them in parts (--shard K/N, or split the input)\n",
            in->n, np_format_bytes(b1, sizeof b1, (uint64_t)need),
            np_format_bytes(b2, sizeof b2, in->limit),
            in->limit_given ? "--max-memory allows" : "available");
    return EXIT_PDB;
}

/* Read the boards of every FILE (standard input for none or '-'). A bad line
 * stops the run before any search: each is reported as FILE:LINE.
 * @return EXIT_OK, EXIT_USAGE (malformed lines) or EXIT_PDB (a file that
 *         cannot be read; no memory). */
static int read_input(input *in, const solve_args *a)
{
    int rc = EXIT_OK;
    /* --shard K/N: the boards K, K+N, K+2N, ... of the input (counted from 1),
     * each keeping its id (its line number when it has no id=); the others
     * are read (their lines checked) but not kept */
    in->shard_k = a->shard_n > 0 ? (size_t)a->shard_k : 0;
    in->shard_n = a->shard_n > 0 ? (size_t)a->shard_n : 0;
    in->limit_given = a->opts.max_memory != 0;
    in->limit = in->limit_given ? a->opts.max_memory : np_mem_available();
    if (a->nfiles == 0)
        rc = read_boards(in, "-", a->rows, a->cols);
    for (int i = 0; i < a->nfiles && rc == EXIT_OK; i++)
        rc = read_boards(in, a->files[i], a->rows, a->cols);
    if (rc == EXIT_OK && in->bad.count) {
        boards_errors_tail(&in->bad);
        fprintf(stderr, "npuzzle solve: %ld malformed line%s, nothing solved\n", in->bad.count,
                in->bad.count == 1 ? "" : "s");
        rc = EXIT_USAGE;
    }
    if (rc == EXIT_OK)
        rc = answers_fit(in);
    return rc;
}

/* The geometry, search options and tables for boards of r x k, as the
 * options ask. @return EXIT_OK, or the exit code solve_pdb_open reported. */
/* Whether the boards' PDBs are looked for; whether they must be there. */
static bool pdb_wanted(const solve_args *a)
{
    return a->opts.heuristic == NP_H_PDB ||
        (!a->heuristic_given && a->bopts.algorithm == NP_ALG_IDA);
}

static bool pdb_required(const solve_args *a)
{
    return (a->heuristic_given && a->opts.heuristic == NP_H_PDB) || a->opts.dual ||
        a->zero_aware == 1;
}

/* The np_pdbset_open flags of the options. */
static unsigned pdb_flags(const solve_args *a)
{
    return (a->shared_map ? 0 : NP_PDBSET_PRIVATE_COPY) | (a->opts.dual ? NP_PDBSET_DUAL : 0) |
        (a->verify_tables ? 0 : NP_PDBSET_STAMP) | (a->zero_aware == 1 ? NP_PDBSET_ZERO_AWARE : 0);
}

/* The options against every board size of the input that has boards to
 * search (not done[i]: a checkpoint's answers need no tables), before any
 * board is searched: an error found only when its size's turn came would
 * throw away the answers of the sizes before it. @return EXIT_OK, EXIT_USAGE
 * or EXIT_PDB (a table missing), said on standard error with the first board
 * of the size at fault. */
static int sizes_check(const input *in, const solve_args *a, const bool *done)
{
    /* each size's first board to search, as 1 + its index (0: none) */
    size_t first[NP_MAX_SIDE + 1][NP_MAX_SIDE + 1] = {{0}};
    for (size_t i = 0; i < in->n; i++) {
        const entry *e = &in->v[i];
        if (done[i])
            continue;
        const int r = e->board.rows, k = e->board.cols;
        if (first[r][k])
            continue;
        first[r][k] = i + 1;
        if (a->bopts.algorithm == NP_ALG_ASTAR && r * k > NP_ASTAR_MAX_CELLS) {
            fprintf(stderr,
                    "npuzzle solve: %s:%ld: --algorithm astar handles boards of at most %d "
                    "cells, not %dx%d (use IDA*, the default)\n",
                    e->file, e->line, NP_ASTAR_MAX_CELLS, r, k);
            return EXIT_USAGE;
        }
        if (!pdb_wanted(a))
            continue;
        np_partition part;
        char err[512] = "";
        if (a->partition &&
            np_partition_resolve(&part, a->partition, r, k, true, err, sizeof err) != NP_OK) {
            fprintf(stderr, "npuzzle solve: %s:%ld: --partition %s: %s\n", e->file, e->line,
                    a->partition, err);
            return EXIT_USAGE;
        }
        if (a->partition) {
            np_geom g;
            np_geom_init(&g, r, k, a->goal);
            char where[4096 + 32];
            snprintf(where, sizeof where, "%s:%ld", e->file, e->line);
            if (solve_pdb_check_size(&g, &part, where) != EXIT_OK)
                return EXIT_USAGE;
        }
        /* (--gen asks for tables: a size without a default has none to build) */
        if (!a->partition && (pdb_required(a) || a->gen) &&
            np_partition_default(&part, r, k) != NP_OK) {
            char ex[128];
            fprintf(stderr,
                    "npuzzle solve: %s:%ld: no default partition for %dx%d boards; give "
                    "--partition (e.g. %s)\n",
                    e->file, e->line, r, k, solve_pdb_example(ex, sizeof ex, r, k));
            return EXIT_USAGE;
        }
    }
    /* then the tables each size needs (exit 3; --gen builds what is missing),
     * once no usage error is left */
    const bool tables = pdb_required(a) && !a->gen;
    for (int r = 0; r <= NP_MAX_SIDE && tables; r++)
        for (int k = 0; k <= NP_MAX_SIDE; k++) {
            if (!first[r][k])
                continue;
            const entry *e = &in->v[first[r][k] - 1];
            np_geom g;
            np_geom_init(&g, r, k, a->goal);
            char where[4096 + 32];
            snprintf(where, sizeof where, "%s:%ld", e->file, e->line);
            int prc = solve_pdb_precheck(&g, a->partition, a->pdb_dir_opt, pdb_flags(a),
                                         a->zero_aware == -1, where);
            if (prc != EXIT_OK)
                return prc;
        }
    return EXIT_OK;
}

static int group_open(np_geom *g, np_search_opts *o, solve_pdb_ctx *pdb, const solve_args *a,
                      int threads, int r, int k)
{
    np_geom_init(g, r, k, a->goal);
    *o = a->opts;
    memset(pdb, 0, sizeof *pdb);
    if (pdb_wanted(a)) {
        int prc = solve_pdb_open(pdb, g, a->partition, a->pdb_dir_opt, a->gen, threads, a->quiet,
                                 pdb_required(a), pdb_flags(a), a->zero_aware == -1);
        if (prc != EXIT_OK)
            return prc;
        if (pdb->set) {
            o->heuristic = NP_H_PDB;
            o->pdbs = pdb->set;
        } else {
            o->heuristic = a->heuristic_given ? a->opts.heuristic : NP_H_LC;
        }
    }
    return EXIT_OK;
}

/* Solve the m boards of one size, boards[j] being the input's board idx[j],
 * into res[idx[j]]: open its PDBs when they are wanted, run the batch, and
 * check the tables again after it. @return an exit code. */
static int solve_group(np_result *res, const input *in, const np_board *boards, const size_t *idx,
                       size_t m, const solve_args *a, np_batch_opts *bopts, progress_ctx *pctx)
{
    int rc = EXIT_OK;
    int r = boards[0].rows, k = boards[0].cols;
    np_geom g;
    np_search_opts o;
    solve_pdb_ctx pdb;
    int prc = group_open(&g, &o, &pdb, a, bopts->threads, r, k);
    if (prc != EXIT_OK)
        return prc;
    /* One size in the input (the usual case): results go straight into
     * place, without a second array of m results (about 1 KiB each). */
    bool direct = m == in->n;
    np_result *part = direct ? res : calloc(m, sizeof *part);
    if (!part) {
        fprintf(stderr, "npuzzle solve: out of memory\n");
        solve_pdb_close(&pdb);
        return EXIT_PDB;
    }
    /* The batch reports positions within this size group; map them back. */
    entry *group = direct ? NULL : malloc(m * sizeof *group);
    for (size_t j = 0; group && j < m; j++)
        group[j] = in->v[idx[j]];
    pctx->entries = group ? group : in->v;
    pctx->total = m;
    /* A run resumed from a checkpoint shares the threads as its first run
     * did, which saw every board of this size: the boards left would get
     * them all otherwise, and a board's count at --max-nodes depends on how
     * many threads search it. */
    np_batch_opts share = *bopts;
    size_t all = 0;
    for (size_t j = 0; j < in->n; j++)
        all += in->v[j].board.rows == r && in->v[j].board.cols == k;
    if (pctx->ck && share.algorithm == NP_ALG_IDA && all > m) {
        if (np_batch_one_at_a_time(all, &g, &share)) {
            share.mode = NP_BATCH_ONE_AT_A_TIME;
        } else {
            share.mode = NP_BATCH_PARALLEL; /* one thread a board */
            if ((size_t)share.threads > m)
                share.threads = (int)m;
        }
    }
    /* Boards one at a time (long searches, as a rule; np_batch_solve, or one
     * board across the ranks of npuzzle-mpi): each finished iteration too. */
    pctx->iterations = pctx->show && a->bopts.algorithm == NP_ALG_IDA &&
        (pctx->mpi ? in->n == 1 : np_batch_one_at_a_time(m, &g, &share));
    if (pctx->ck) {
        pctx->idx = idx;
        int crc = checkpoint_tables(pctx->ck, r, k, pdb.set ? np_pdbset_digest(pdb.set) : 0);
        if (crc != EXIT_OK) {
            if (!direct)
                free(part);
            free(group);
            solve_pdb_close(&pdb);
            return crc;
        }
    }
#ifdef NP_MPI
    const bool mpi_run = mpi_active();
#else
    const bool mpi_run = false;
#endif
    if (bopts->algorithm == NP_ALG_ASTAR && g.cells > NP_ASTAR_MAX_CELLS) {
        fprintf(stderr,
                "npuzzle solve: %s:%ld: --algorithm astar handles boards of at most %d "
                "cells, not %dx%d (use IDA*, the default)\n",
                in->v[idx[0]].file, in->v[idx[0]].line, NP_ASTAR_MAX_CELLS, r, k);
        if (!direct)
            free(part);
        free(group);
        solve_pdb_close(&pdb);
        return EXIT_USAGE;
    }
    if (pdb.set)
        install_sigbus_handler();
    /* A* boards side by side (one to a thread) share the memory: each gets
     * its part of --max-memory, or of three quarters of MemAvailable (which
     * each would otherwise take whole). Under npuzzle-mpi each rank measures
     * its own machine. (The input's boards and answers are held to
     * --max-memory too, but not taken from A*'s part: every rank, and every
     * earlier version's checkpoint, gives A* the same.) */
    if (bopts->algorithm == NP_ALG_ASTAR && !mpi_run) /* (npuzzle-mpi: each rank shares its own) */
        /* the share counts every board of this size, finished ones too, so
         * that a run resumed from a checkpoint gives each the same */
        o.max_memory = cli_astar_share(o.max_memory, all, bopts->threads);
#ifdef NP_MPI
    char *dir = cli_pdb_dir(a->pdb_dir_opt);
    int brc = mpi_active() ? mpi_solve_batch(part, boards, m, all, &g, &o, bopts, dir ? dir : "")
                           : np_batch_solve(part, boards, m, &g, &o, &share);
    free(dir);
    if (brc == NP_EMISMATCH && mpi_active())
        rc = EXIT_PDB; /* reported by rank and file */
#else
    int brc = np_batch_solve(part, boards, m, &g, &o, &share);
#endif
    /* (a refused resumed state leaves the other boards' answers, which are printed) */
    if (pdb.set && (brc == NP_OK || (brc == NP_EINVAL && pctx->ck && !pctx->retrying))) {
        /* A table rewritten in place while mapped would have fed the search
         * wrong values: check the files again before trusting the answers
         * (those nothing wrote to are not read again, unless --verify-tables). */
        char verr[512] = "";
        int vrc = a->verify_tables ? np_pdbset_verify(pdb.set, verr, sizeof verr)
                                   : np_pdbset_recheck(pdb.set, verr, sizeof verr);
        if (vrc != NP_OK) {
            fprintf(stderr,
                    "npuzzle solve: %s\n  a table changed while solving; "
                    "answers not trusted (rebuild it with npuzzle gen --force)\n",
                    verr);
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
    if (brc == NP_EINVAL && pctx->ck && !pctx->retrying) {
        /* The boards were checked when read: what did not fit is a state the
         * checkpoint gave (a file written by another version of npuzzle),
         * which checkpoint_finish dropped. solve_all searches those boards
         * again, from their start. */
        fprintf(stderr,
                "npuzzle solve: checkpoint %s holds a search state these boards do not have "
                "(written by another version?); it is dropped: %s\n",
                a->checkpoint,
                rc == EXIT_OK ? "the board is searched again from its start"
                              : "the next run searches the board from its start");
        pctx->refused = true;
    } else if (brc == NP_EINVAL && pctx->ck) {
        fprintf(stderr, "npuzzle solve: a board searched from its start was refused: %s\n",
                np_strerror(brc));
        rc = EXIT_PDB;
    } else if (brc != NP_OK && rc == EXIT_OK) {
        fprintf(stderr, "npuzzle solve: %s\n", np_strerror(brc));
        rc = cli_exit_for_error(brc);
    }
    return rc;
}

/* What is wrong with a finished answer a checkpoint holds for board b, or
 * NULL: a solved board's moves must replay to the goal and number its length,
 * an unsolvable one must be in the other parity class. */
static const char *resumed_answer_wrong(const np_board *b, np_goal goal, const np_result *r)
{
    np_geom g;
    if (np_geom_init(&g, b->rows, b->cols, goal) != NP_OK)
        return "is for a board size this build cannot search";
    switch (r->status) {
    case NP_STATUS_SOLVED:
        if ((int)strlen(r->moves) != r->length || np_solution_check(b, &g, r->moves) != NP_OK)
            return "does not replay to the goal";
        return NULL;
    case NP_STATUS_UNSOLVABLE:
        return np_board_solvable(b, &g) ? "says unsolvable, but the board is solvable" : NULL;
    case NP_STATUS_LIMIT: return NULL;
    default: return "has an unknown status";
    }
}

/* Solve the boards not done (marking them done), one batch per board size:
 * boards and idx have room for every board. @return an exit code. */
static int solve_left(np_result *res, const input *in, const solve_args *a, np_batch_opts *bopts,
                      progress_ctx *pctx, np_board *boards, size_t *idx, bool *done)
{
    int rc = EXIT_OK;
    for (size_t i = 0; i < in->n && rc == EXIT_OK && !interrupted; i++) {
        if (done[i])
            continue;
        int r = in->v[i].board.rows, k = in->v[i].board.cols;
        size_t m = 0;
        for (size_t j = i; j < in->n; j++)
            if (!done[j] && in->v[j].board.rows == r && in->v[j].board.cols == k) {
                boards[m] = in->v[j].board;
                idx[m++] = j;
                done[j] = true;
            }
        rc = solve_group(res, in, boards, idx, m, a, bopts, pctx);
    }
    return rc;
}

/* Solve every board, one batch per board size (boards of one size share a
 * geometry and PDBs). *res receives the results in input order (malloc'd,
 * also on failure), *wall the time it took. @return an exit code. */
static int solve_all(np_result **res, double *wall, const input *in, const solve_args *a,
                     checkpoint *ck)
{
    np_batch_opts bopts = a->bopts;
    bopts.threads = cli_threads(a->jobs);
    progress_ctx pctx = {.entries = in->v, .tty = isatty(2) != 0, .ck = ck};
    pctx.show = (a->progress || pctx.tty) && !a->quiet;
    if (pctx.show || ck) {
        bopts.progress = on_progress;
        bopts.progress_ctx = &pctx;
    }
    bool mpi = false;
#ifdef NP_MPI
    mpi = mpi_active();
#endif
    if (mpi && a->bopts.mode == NP_BATCH_ONE_AT_A_TIME && !a->quiet)
        fprintf(stderr,
                "npuzzle solve: note: npuzzle-mpi hands boards to ranks; "
                "--batch one-at-a-time is ignored\n");
    pctx.mpi = mpi;
    /* each finished iteration too, where boards go one at a time (solve_group) */
    pctx.every = pctx.tty && a->progress_every > 0.5 ? 0.5 : a->progress_every;
    /* and each finished piece, at most every --progress-every seconds; only
     * where the search goes by pieces already (more than one thread), since
     * a piece journal would split a one-thread search too */
    pctx.iter_journal = (np_journal){.iteration = on_iteration,
                                     .piece = bopts.threads > 1 ? on_piece : NULL,
                                     .running = bopts.threads > 1 ? on_running : NULL,
                                     .running_every = running_every(pctx.every),
                                     .ctx = &pctx};
    if (ck && pctx.show)
        checkpoint_observe(ck, on_iteration, report_piece, report_running,
                           running_every(pctx.every), &pctx);
    if (ck || pctx.show) {
        bopts.prepare = on_prepare;
        bopts.prepare_ctx = &pctx;
    }

    int rc = EXIT_OK;
    *res = calloc(in->n ? in->n : 1, sizeof **res);
    np_board *boards = malloc((in->n ? in->n : 1) * sizeof *boards);
    size_t *idx = malloc((in->n ? in->n : 1) * sizeof *idx);
    bool *done = calloc(in->n ? in->n : 1, sizeof *done);
    if (!*res || !boards || !idx || !done) {
        fprintf(stderr, "npuzzle solve: out of memory for %zu boards\n", in->n);
        rc = EXIT_PDB;
    }
    /* Boards the checkpoint holds finished are not searched again; their
     * answers are checked as npuzzle verify would, since a damaged or edited
     * file can pass its digest. */
    for (size_t i = 0; ck && rc == EXIT_OK && i < in->n; i++) {
        const np_result *r = checkpoint_done(ck, i);
        const char *wrong = r ? resumed_answer_wrong(&in->v[i].board, a->goal, r) : NULL;
        if (wrong) {
            const entry *e = &in->v[i];
            char id[32];
            snprintf(id, sizeof id, "%ld", e->line);
            fprintf(stderr,
                    "npuzzle solve: checkpoint %s: its answer for board %s (%s:%ld) %s; delete it "
                    "to start over\n",
                    a->checkpoint, e->meta.id[0] ? e->meta.id : id, e->file, e->line, wrong);
            rc = EXIT_PDB;
        } else if (r) {
            (*res)[i] = *r;
            done[i] = true;
        }
    }
    if (rc == EXIT_OK)
        rc = sizes_check(in, a, done);
    double t0 = np_clock();
    if (rc == EXIT_OK)
        rc = solve_left(*res, in, a, &bopts, &pctx, boards, idx, done);
    /* Boards whose resumed state the search refused (dropped from the
     * checkpoint): searched again from their start, once. */
    if (rc == EXIT_OK && pctx.refused && !interrupted) {
        pctx.retrying = true;
        for (size_t i = 0; i < in->n; i++)
            done[i] = !((*res)[i].status == NP_STATUS_ERROR && (*res)[i].error == NP_EINVAL);
        rc = solve_left(*res, in, a, &bopts, &pctx, boards, idx, done);
    }
    *wall = np_clock() - t0;
    free(boards);
    free(idx);
    free(done);
    return rc;
}

/* Print every result in input order through the record writer, then say on
 * standard error what went wrong. @return the run's exit code: EXIT_PDB for a
 * board that failed, EXIT_FAIL for a --check mismatch or a limit reached. */
static int print_results(const input *in, const np_result *res, double wall, const solve_args *a,
                         size_t resumed)
{
    FILE *out = stdout;
    int mismatches = 0, limits = 0, errors = 0, solved = 0, unsolvable = 0;
    uint64_t tot_exp = 0, tot_gen = 0, tot_extra = 0;
    double tot_sec = 0;
    record_writer w;
    record_writer_init(&w, out, a->fmt);
    w.mark_mismatch = a->check;
    for (size_t i = 0; i < in->n; i++) {
        char idbuf[32];
        w.opt_columns |= in->v[i].meta.opt >= 0;
        record_writer_fit_id(&w, entry_id(&in->v[i], idbuf, sizeof idbuf));
    }
    record_write_header(&w);
    for (size_t i = 0; i < in->n; i++) {
        const entry *e = &in->v[i];
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
        rec.nodes_extra = r->extra;
        rec.seconds = r->seconds;
        rec.h0 = r->h0;
        rec.bound = r->bound;
        rec.opt = e->meta.opt;
        /* A board stopped by a limit (or failed) has no answer to check:
         * its check stays empty and its exit code comes from the limit. */
        if (e->meta.opt >= 0 &&
            (r->status == NP_STATUS_SOLVED || r->status == NP_STATUS_UNSOLVABLE)) {
            bool ok = r->status == NP_STATUS_SOLVED && r->length == e->meta.opt;
            if (r->status == NP_STATUS_SOLVED && a->opts.weight > 1.0)
                ok = r->length >= e->meta.opt &&
                    cli_within_weight(r->length, e->meta.opt, a->opts.weight);
            rec.check = ok ? "ok" : "mismatch";
            if (a->check && !ok)
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
        tot_extra += r->extra;
        tot_sec += r->seconds;
        record_write(&w, &rec);
    }
    record_totals totals = {.boards = in->n,
                            .solved = solved,
                            .unsolvable = unsolvable,
                            .limits = limits,
                            .mismatch = mismatches > 0,
                            .expanded = tot_exp,
                            .generated = tot_gen,
                            .extra = tot_extra,
                            .resumed = resumed,
                            .search_seconds = tot_sec,
                            .wall_seconds = wall};
    record_write_totals(&w, &totals);
    cli_flush(out);
    if (!a->quiet && a->fmt != RECORD_TEXT && isatty(2))
        fprintf(stderr, "%zu boards: %d solved, %d unsolvable, %d limit; %.3f s wall\n", in->n,
                solved, unsolvable, limits, wall);
    if (mismatches)
        fprintf(stderr, "npuzzle solve: %d board%s did not match opt=\n", mismatches,
                mismatches == 1 ? "" : "s");
    if (limits && !a->quiet) {
        fprintf(stderr, "npuzzle solve: %d board%s reached a limit before a solution\n", limits,
                limits == 1 ? "" : "s");
        /* which limits there were: a limit row does not say which it met */
        char given[224] = "";
        size_t gl = 0;
        if (a->opts.max_nodes)
            gl += (size_t)snprintf(given + gl, sizeof given - gl, ", --max-nodes %llu",
                                   (unsigned long long)a->opts.max_nodes);
        if (a->opts.timeout > 0 && gl < sizeof given)
            gl +=
                (size_t)snprintf(given + gl, sizeof given - gl, ", --timeout %g", a->opts.timeout);
        if (a->bopts.algorithm == NP_ALG_ASTAR && gl < sizeof given)
            gl += (size_t)snprintf(given + gl, sizeof given - gl,
                                   ", A*'s memory (%s, shared by the boards solved side by side)",
                                   a->opts.max_memory ? "--max-memory"
                                                      : "three quarters of the available memory");
        const bool astar_weighted = a->bopts.algorithm == NP_ALG_ASTAR && a->opts.weight > 1.0;
        if (astar_weighted && gl < sizeof given)
            snprintf(given + gl, sizeof given - gl, ", a path of %d moves (weighted)", NP_MAX_PATH);
        if (given[0])
            fprintf(stderr, "  the limits: %s\n", given + 2);
        /* no limit given (A* has its memory): the only one left is the path cap */
        if (a->opts.weight > 1.0 && !a->opts.max_nodes && !(a->opts.timeout > 0) &&
            !a->opts.max_memory && !astar_weighted)
            fprintf(stderr,
                    "  a weighted search stops when a path reaches %d moves, the most an "
                    "answer holds:\n  a smaller weight avoids that\n",
                    NP_MAX_PATH);
    }
    if (errors) {
        fprintf(stderr, "npuzzle solve: %d board%s failed (internal error)\n", errors,
                errors == 1 ? "" : "s");
        return EXIT_PDB;
    }
    return mismatches || limits ? EXIT_FAIL : EXIT_OK;
}

/* What changes a run's answers or counts, as the checkpoint records it (the
 * thread count does not, but for A*, whose boards side by side share the
 * memory: any -j resumes an IDA* checkpoint). The machine over 12 moves keeps
 * its old name, so that checkpoints of earlier versions resume with --prune
 * fsm12. @return false when the text does not fit in buf. */
static bool options_text(char *buf, size_t len, const solve_args *a)
{
    static const char *const prune_names[] = {[NP_PRUNE_DEFAULT] = "parent",
                                              [NP_PRUNE_PARENT] = "parent",
                                              [NP_PRUNE_FSM] = "fsm14",
                                              [NP_PRUNE_FSM12] = "fsm"};
    /* The limits that end a board early are part of its answer; the time and
     * memory ones are named only when given, so that the checkpoints of runs
     * without them read as before. */
    char limits[128] = "";
    size_t used = 0;
    if (a->opts.timeout > 0)
        used = (size_t)snprintf(limits, sizeof limits, " timeout=%.9g", a->opts.timeout);
    if (a->opts.max_memory && used < sizeof limits)
        used += (size_t)snprintf(limits + used, sizeof limits - used, " max-memory=%llu",
                                 (unsigned long long)a->opts.max_memory);
    const bool astar = a->bopts.algorithm == NP_ALG_ASTAR;
    if (astar && cli_threads(a->jobs) > 1 && used < sizeof limits)
        snprintf(limits + used, sizeof limits - used, " jobs=%d", cli_threads(a->jobs));
    /* A* without -H takes lc (parse_args; earlier versions took md) */
    const char *heuristic = a->heuristic_given || astar ? np_hkind_name(a->opts.heuristic) : "auto";
    int n = snprintf(
        buf, len,
        "algorithm=%s heuristic=%s partition=%s reflect=%s weight=%g goal=%s max-nodes=%llu "
        "size=%dx%d prune=%s%s%s",
        astar ? "astar" : "ida", heuristic, a->partition ? a->partition : "default",
        a->opts.no_reflect ? "no" : "yes", a->opts.weight > 1.0 ? a->opts.weight : 1.0,
        a->goal == NP_GOAL_BLANK_LAST ? "blank-last" : "blank-first",
        (unsigned long long)a->opts.max_nodes, a->rows, a->cols, prune_names[a->opts.prune],
        a->opts.dual ? " dual=yes" : "", limits);
    return n >= 0 && (size_t)n < len;
}

/* Open --checkpoint for the boards read, and let SIGINT, SIGTERM and SIGHUP stop the
 * searches (their cancel flag) so that it is written before the exit. */
static int open_checkpoint(checkpoint **ck, const input *in, solve_args *a)
{
    np_board *boards = malloc((in->n ? in->n : 1) * sizeof *boards);
    if (!boards) {
        fprintf(stderr, "npuzzle solve: out of memory for %zu boards\n", in->n);
        return EXIT_PDB;
    }
    for (size_t i = 0; i < in->n; i++)
        boards[i] = in->v[i].board;
    char options[1024];
    if (!options_text(options, sizeof options, a)) {
        fprintf(stderr, "npuzzle solve: --checkpoint: the options are too long to record\n");
        free(boards);
        return EXIT_USAGE;
    }
    int rc = checkpoint_open(ck, a->checkpoint, options, boards, in->n, a->checkpoint_every);
    free(boards);
    if (rc == EXIT_OK && (rc = checkpoint_save(*ck)) != EXIT_OK) { /* writable, before any search */
        checkpoint_close(*ck);
        *ck = NULL;
    }
    if (rc != EXIT_OK)
        return rc;
    a->opts.cancel = &interrupted;
    /* A second signal ends the run at once, without the last checkpoint. */
    catch_interrupts(SA_RESTART | SA_RESETHAND);
    return EXIT_OK;
}

int cmd_solve(int argc, char **argv)
{
    solve_args a;
    int rc = parse_args(&a, argc, argv);
    if (rc != EXIT_OK)
        return rc < 0 ? EXIT_OK : rc;
    input in = {0};
    np_result *res = NULL;
    double wall = 0;
    rc = read_input(&in, &a);
    if (rc == EXIT_OK && !a.quiet)
        note_shared_ids(&in);
    checkpoint *ck = NULL;
    if (rc == EXIT_OK && a.checkpoint)
        rc = open_checkpoint(&ck, &in, &a);
    if (rc == EXIT_OK)
        rc = solve_all(&res, &wall, &in, &a, ck);
    int write_rc = EXIT_OK; /* a checkpoint that could not be written (reported) */
    if (ck) {
        int crc = checkpoint_save(ck);
        if (rc == EXIT_OK && interrupted) {
            if (crc == EXIT_OK && !a.quiet)
                fprintf(stderr,
                        checkpoint_read_only(ck)
                            ? "npuzzle solve: interrupted; checkpoint %s left as it was "
                              "(read-only, every board answered)\n"
                            : "npuzzle solve: interrupted; checkpoint %s written (run the same "
                              "command to continue)\n",
                        a.checkpoint);
            rc = crc == EXIT_OK ? EXIT_INTERRUPTED : crc;
        } else if (crc != EXIT_OK || checkpoint_error(ck) != EXIT_OK) {
            write_rc = EXIT_PDB;
        }
    }
    if (rc == EXIT_OK) {
        rc = print_results(&in, res, wall, &a, ck ? checkpoint_resumed(ck) : 0);
        if (write_rc != EXIT_OK)
            rc = write_rc;
    }
    checkpoint_close(ck);
    free(res);
    free(in.v);
    return rc;
}

#ifdef NP_MPI
/* ---- npuzzle-mpi: a worker rank ------------------------------------------------ */

typedef struct worker_ctx {
    const solve_args *a;
    int bad; /* the command line's exit code when it did not parse (rank 0 says why) */
    solve_pdb_ctx pdb;
} worker_ctx;

static int worker_open(void *ctx, int rows, int cols, np_geom *g, np_search_opts *o, char *dir,
                       size_t dirlen)
{
    worker_ctx *w = ctx;
    if (w->bad != EXIT_OK)
        return w->bad;
    char *d = cli_pdb_dir(w->a->pdb_dir_opt);
    snprintf(dir, dirlen, "%s", d ? d : "");
    free(d);
    return group_open(g, o, &w->pdb, w->a, cli_threads(w->a->jobs), rows, cols);
}

static void worker_close(void *ctx)
{
    worker_ctx *w = ctx;
    solve_pdb_close(&w->pdb);
}

int cmd_solve_worker(int argc, char **argv)
{
    /* Only rank 0 prints: its results, and what is wrong with the command
     * line (which every rank reads the same). */
    fflush(stdout);
    fflush(stderr);
    int saved = dup(2);
    FILE *devnull = freopen("/dev/null", "w", stdout);
    (void)devnull;
    int null_fd = open("/dev/null", O_WRONLY);
    if (null_fd >= 0)
        dup2(null_fd, 2);
    solve_args a;
    int rc = parse_args(&a, argc, argv);
    fflush(stderr);
    if (saved >= 0) {
        dup2(saved, 2);
        close(saved);
    }
    if (null_fd >= 0)
        close(null_fd);
    a.quiet = true;
    worker_ctx w = {.a = &a, .bad = rc == EXIT_OK ? EXIT_OK : rc < 0 ? EXIT_OK : rc};
    catch_interrupts(SA_RESTART);
    mpi_worker_ops ops = {.open = worker_open,
                          .close = worker_close,
                          .ctx = &w,
                          .threads = cli_threads(a.jobs),
                          .algorithm = a.bopts.algorithm,
                          .cancel = &interrupted};
    return mpi_serve(&ops);
}
#endif
