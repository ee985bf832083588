/* solve_mpi.c - npuzzle-mpi: the messages between rank 0 and the workers
 * (solve_mpi.h). On rank 0 only the main thread calls MPI; the threads that
 * search there meet it under a mutex. A worker's main thread takes the work;
 * while its threads search, they send their journal (the finished pieces and
 * iterations of boards that rank 0 checkpoints) and a listening thread takes
 * rank 0's stops: MPI_THREAD_MULTIPLE. Ranks wait for messages by probing and
 * sleeping a little, not by spinning: the ranks of a run may share cores with
 * each other's search threads. */
#include "solve_mpi.h"

#include <mpi.h>
#include <omp.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"

enum {
    TAG_GROUP = 1,     /* rank 0 -> worker: msg_group */
    TAG_GROUP_REPLY,   /* worker -> rank 0: msg_group_reply */
    TAG_BOARDS,        /* rank 0 -> worker: msg_boards, then the resumed states */
    TAG_RESULTS,       /* worker -> rank 0: msg_results */
    TAG_PIECES,        /* rank 0 -> worker: msg_pieces */
    TAG_PIECE_RESULTS, /* worker -> rank 0: msg_piece_results */
    TAG_END,           /* rank 0 -> worker: stop */
    TAG_JOURNAL,       /* worker -> rank 0: msg_journal, a board's progress */
    TAG_STOP,          /* rank 0 -> worker: msg_stop, cut pieces of an iteration */
    TAG_CANCEL         /* rank 0 -> worker: no bytes, stop as if signalled (a batch) */
};

/* At most this many boards or pieces in one message: a worker takes as many
 * as it has threads, up to this. */
#define MPI_ITEMS 64

typedef struct msg_group {
    int rows, cols;
    uint64_t all; /* the input's boards of this size (A*'s share of a rank's memory) */
} msg_group;

typedef struct msg_group_reply {
    int rc;      /* an exit code: EXIT_OK (0) when the worker is ready */
    int threads; /* how many boards or pieces it takes at a time */
    int ntables;
    char dir[400];   /* the folder it looked for them in */
    uint64_t digest; /* np_pdbset_digest: the dual lookups' tables too */
    struct {
        uint64_t checksum;
        char path[512];
    } table[NP_PARTITION_MAX];
} msg_group_reply;

/* Where a board's search stands (np_iteration) and its finished pieces, as
 * bytes: a wire_iteration, nfinished wire_pieces, then the moves of those
 * holding a solution, one after the other (length letters each). */
typedef struct wire_iteration {
    int bound, depth;
    uint64_t npieces, expanded, generated, extra, nfinished;
} wire_iteration;

typedef struct wire_piece {
    uint64_t index, expanded, generated, span;
    int next_bound, length;
} wire_piece;

/* Boards to solve; the message goes on with the resumed states (`resume`
 * bytes from `at` past the struct for item k; 0 bytes: from the start). */
typedef struct msg_boards {
    int count;
    int journal; /* send msg_journal as they go: 1 for rank 0's progress lines, 2 when rank 0
                  * keeps them for a resumed run too (np_journal.recut_at_stop) */
    struct {
        uint64_t index;
        np_board board;
        uint64_t at, resume;
        double timeout; /* its --timeout: less its seconds in earlier runs when resumed */
    } item[MPI_ITEMS];
} msg_boards;

typedef struct msg_results {
    int count;
    int rc;        /* np_batch_solve's */
    int cancelled; /* the worker was told to stop (SIGINT, SIGTERM) */
    struct {
        uint64_t index;
        np_result result;
    } item[MPI_ITEMS];
} msg_results;

/* A piece or an iteration of board `index` finished (np_journal). */
typedef struct msg_journal {
    uint64_t index;
    int iteration; /* 1: np_journal.iteration (it: the next one); 0: .piece */
    wire_iteration it;
    wire_piece piece;
    char moves[NP_MAX_PATH + 1];
} msg_journal;

/* The iteration a piece belongs to. */
typedef struct wire_list {
    np_board board;
    int bound, depth;
    uint64_t npieces;
} wire_list;

typedef struct msg_pieces {
    wire_list list;
    uint64_t max_nodes; /* what is left of the run's limits: each piece's */
    double seconds;     /* (0: none) */
    int count;
    uint64_t index[MPI_ITEMS];
} msg_pieces;

/* Stop the pieces `from` and after of an iteration (0: all, a limit). */
typedef struct msg_stop {
    wire_list list;
    uint64_t from;
} msg_stop;

typedef struct msg_piece_results {
    int count;
    int rc;        /* the first error of np_piece_list_search */
    int cancelled; /* as in msg_results */
    struct {
        uint64_t index, expanded, generated;
        int next_bound, length, stopped;
        int rc; /* this piece's: not NP_OK, the piece was not searched */
        char moves[NP_MAX_PATH + 1];
    } item[MPI_ITEMS];
} msg_piece_results;

static int my_rank, nranks = 1;

int mpi_start(int *argc, char ***argv)
{
    int provided;
    MPI_Init_thread(argc, argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &my_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nranks);
    if (nranks > 1 && provided < MPI_THREAD_MULTIPLE) {
        if (my_rank == 0)
            fprintf(stderr,
                    "npuzzle-mpi: this MPI library gives thread level %d, and npuzzle-mpi "
                    "needs MPI_THREAD_MULTIPLE (%d): Open MPI 3 and later have it\n",
                    provided, MPI_THREAD_MULTIPLE);
        MPI_Abort(MPI_COMM_WORLD, 3);
    }
    return my_rank;
}

bool mpi_active(void)
{
    return nranks > 1;
}

void mpi_stop(void)
{
    if (my_rank == 0)
        for (int r = 1; r < nranks; r++)
            MPI_Send(NULL, 0, MPI_BYTE, r, TAG_END, MPI_COMM_WORLD);
    MPI_Finalize();
}

/* Wait up to `ms` milliseconds (-1: for ever) for a message from `source`
 * (MPI_ANY_SOURCE: any) with tag `tag` (MPI_ANY_TAG: any), probing every
 * millisecond. @return whether one came. */
static bool wait_message_for(int source, int tag, MPI_Status *st, int ms)
{
    int flag = 0;
    struct timespec pause = {0, 1000000};
    for (int waited = 0;; waited++) {
        MPI_Iprobe(source, tag, MPI_COMM_WORLD, &flag, st);
        if (flag)
            return true;
        if (ms >= 0 && waited >= ms)
            return false;
        nanosleep(&pause, NULL);
    }
}

static void wait_message(int source, int tag, MPI_Status *st)
{
    wait_message_for(source, tag, st, -1);
}

/* ---- the wire forms of a search's state ---------------------------------------- */

static wire_iteration wire_of_iteration(const np_iteration *it)
{
    return (wire_iteration){.bound = it->bound,
                            .depth = it->depth,
                            .npieces = it->npieces,
                            .expanded = it->expanded,
                            .generated = it->generated,
                            .extra = it->extra,
                            .nfinished = it->nfinished};
}

static np_iteration iteration_of_wire(const wire_iteration *w)
{
    return (np_iteration){.bound = w->bound,
                          .depth = w->depth,
                          .npieces = w->npieces,
                          .expanded = w->expanded,
                          .generated = w->generated,
                          .extra = w->extra};
}

static wire_piece wire_of_piece(const np_piece *p)
{
    return (wire_piece){.index = p->index,
                        .expanded = p->expanded,
                        .generated = p->generated,
                        .next_bound = p->next_bound,
                        .length = p->length,
                        .span = p->span};
}

static np_piece piece_of_wire(const wire_piece *w, const char *moves)
{
    return (np_piece){.index = w->index,
                      .expanded = w->expanded,
                      .generated = w->generated,
                      .next_bound = w->next_bound,
                      .length = w->length,
                      .moves = w->length >= 0 ? moves : NULL,
                      .span = (size_t)w->span};
}

/* The bytes of a resumed state (wire_iteration's comment); NULL: none. */
static size_t resume_bytes(const np_iteration *it)
{
    if (!it)
        return 0;
    size_t n = sizeof(wire_iteration) + it->nfinished * sizeof(wire_piece);
    for (size_t k = 0; k < it->nfinished; k++)
        if (it->finished[k].length > 0)
            n += (size_t)it->finished[k].length;
    return n;
}

static void resume_put(unsigned char *out, const np_iteration *it)
{
    wire_iteration w = wire_of_iteration(it);
    memcpy(out, &w, sizeof w);
    unsigned char *p = out + sizeof w, *m = p + it->nfinished * sizeof(wire_piece);
    for (size_t k = 0; k < it->nfinished; k++) {
        wire_piece wp = wire_of_piece(&it->finished[k]);
        memcpy(p, &wp, sizeof wp);
        p += sizeof wp;
        if (wp.length > 0) {
            memcpy(m, it->finished[k].moves, (size_t)wp.length);
            m += wp.length;
        }
    }
}

/* A resumed state from its bytes: *it with pieces and moves malloc'd (free
 * both with resume_free). @return false for bytes that do not add up. */
typedef struct resumed {
    np_iteration it;
    np_piece *pieces;
    char *moves; /* each solution NUL-terminated */
} resumed;

static bool resume_get(resumed *r, const unsigned char *in, size_t n)
{
    memset(r, 0, sizeof *r);
    wire_iteration w;
    if (n < sizeof w)
        return false;
    memcpy(&w, in, sizeof w);
    if (w.nfinished > (n - sizeof w) / sizeof(wire_piece))
        return false;
    size_t left = n - sizeof w - w.nfinished * sizeof(wire_piece);
    r->it = iteration_of_wire(&w);
    r->pieces = calloc(w.nfinished ? w.nfinished : 1, sizeof *r->pieces);
    r->moves = malloc(left + w.nfinished + 1);
    if (!r->pieces || !r->moves)
        return false;
    const unsigned char *p = in + sizeof w, *m = p + w.nfinished * sizeof(wire_piece);
    char *out = r->moves;
    for (size_t k = 0; k < w.nfinished; k++) {
        wire_piece wp;
        memcpy(&wp, p, sizeof wp);
        p += sizeof wp;
        if (wp.length > NP_MAX_PATH || (wp.length > 0 && (size_t)wp.length > left))
            return false;
        if (wp.length > 0) {
            memcpy(out, m, (size_t)wp.length);
            m += wp.length;
            left -= (size_t)wp.length;
        }
        out[wp.length > 0 ? wp.length : 0] = 0;
        r->pieces[k] = piece_of_wire(&wp, out);
        out += (wp.length > 0 ? wp.length : 0) + 1;
    }
    r->it.nfinished = w.nfinished;
    r->it.finished = r->pieces;
    return true;
}

static void resume_free(resumed *r)
{
    free(r->pieces);
    free(r->moves);
}

static wire_list wire_of_list(const np_board *b, const np_iteration *it)
{
    wire_list w;
    memset(&w, 0, sizeof w); /* no stray bytes on the wire */
    w.board = *b;
    w.bound = it->bound;
    w.depth = it->depth;
    w.npieces = it->npieces;
    return w;
}

/* ---- a worker ---------------------------------------------------------------- */

/* Out of memory, or a message this rank does not know: the run ends. */
static _Noreturn void abort_run(const char *why, int tag, int from)
{
    fprintf(stderr, "npuzzle-mpi: rank %d: %s", my_rank, why);
    if (tag >= 0)
        fprintf(stderr, " (tag %d)", tag);
    if (from >= 0)
        fprintf(stderr, " from rank %d", from);
    fputc('\n', stderr);
    MPI_Abort(MPI_COMM_WORLD, 3);
    exit(3); /* MPI_Abort does not return; this says so */
}

static void group_reply(msg_group_reply *rep, const np_geom *g, const np_search_opts *o,
                        const char *dir)
{
    rep->ntables = 0;
    snprintf(rep->dir, sizeof rep->dir, "%s", dir ? dir : "");
    if (o->heuristic != NP_H_PDB || !o->pdbs)
        return;
    const np_partition *part = np_pdbset_partition(o->pdbs);
    rep->ntables = part->npatterns;
    rep->digest = np_pdbset_digest(o->pdbs);
    for (int p = 0; p < part->npatterns; p++) {
        char name[256];
        np_pdb_filename(name, sizeof name, g, part->patterns[p].tiles, part->patterns[p].ntiles);
        snprintf(rep->table[p].path, sizeof rep->table[p].path, "%s/%s", dir, name);
        rep->table[p].checksum = np_pdbset_table_checksum(o->pdbs, p);
    }
}

/* The list of pieces a worker searches: built again only when the board or
 * the iteration changes. `lock` guards it against the listening thread,
 * which stops its pieces when rank 0 says so. */
typedef struct list_cache {
    pthread_mutex_t lock;
    np_piece_list *pl;
    wire_list id; /* its board and iteration (zeroed padding) */
} list_cache;

/* Whether two lists are one: the same board and iteration. */
static bool same_list(const wire_list *a, const wire_list *b)
{
    return a->bound == b->bound && a->depth == b->depth && a->npieces == b->npieces &&
        a->board.rows == b->board.rows && a->board.cols == b->board.cols &&
        a->board.blank == b->board.blank &&
        memcmp(a->board.tiles, b->board.tiles, sizeof a->board.tiles) == 0;
}

/* A stop from rank 0: applied when it is for the cached list, else dropped
 * (a list gone by). */
static void take_stop(list_cache *lc)
{
    msg_stop m;
    MPI_Recv(&m, sizeof m, MPI_BYTE, 0, TAG_STOP, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    pthread_mutex_lock(&lc->lock);
    if (lc->pl && same_list(&lc->id, &m.list))
        np_piece_list_stop(lc->pl, m.from);
    pthread_mutex_unlock(&lc->lock);
}

/* Rank 0's TAG_CANCEL: the worker stops as if signalled (its handler sets
 * `cancel`), unless it has the signal already (a second one would kill it).
 * Taken between messages: the boards it is on end first, the ones queued
 * behind them stop at once. (A thread listening for it while the boards run
 * was tried: its probes slowed the journal's sends enough to matter.) */
static void take_cancel(const volatile int *cancel)
{
    MPI_Recv(NULL, 0, MPI_BYTE, 0, TAG_CANCEL, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (!(cancel && *cancel))
        raise(SIGTERM);
}

/* While a worker's threads search pieces: take rank 0's stops as they come. */
typedef struct listener {
    list_cache *lc;
    int done; /* atomic: the search is over */
} listener;

static void *listen_stops(void *arg)
{
    listener *ls = arg;
    struct timespec pause = {0, 1000000};
    while (!__atomic_load_n(&ls->done, __ATOMIC_RELAXED)) {
        int flag;
        MPI_Iprobe(0, TAG_STOP, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
        if (flag)
            take_stop(ls->lc);
        else
            nanosleep(&pause, NULL);
    }
    return NULL;
}

static void serve_pieces(const msg_pieces *in, msg_piece_results *out, const np_geom *g,
                         const np_search_opts *o, int threads, list_cache *lc)
{
    out->count = in->count;
    out->rc = NP_OK;
    if (!lc->pl || !same_list(&lc->id, &in->list)) {
        pthread_mutex_lock(&lc->lock);
        np_piece_list_close(lc->pl);
        lc->pl = NULL;
        np_iteration it = {
            .bound = in->list.bound, .depth = in->list.depth, .npieces = in->list.npieces};
        out->rc = np_piece_list_open(&lc->pl, &in->list.board, g, o, &it);
        lc->id = in->list;
        pthread_mutex_unlock(&lc->lock);
        if (out->rc != NP_OK) {
            out->count = 0;
            return;
        }
    }
    np_piece_list_limit(lc->pl, in->max_nodes, in->seconds);
    listener ls = {.lc = lc};
    pthread_t tid;
    bool listening = pthread_create(&tid, NULL, listen_stops, &ls) == 0;
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads)
    for (int k = 0; k < in->count; k++) {
        np_piece p;
        bool stopped;
        int rc = np_piece_list_search(lc->pl, in->index[k], &p, out->item[k].moves, &stopped);
        out->item[k].index = in->index[k];
        out->item[k].expanded = p.expanded;
        out->item[k].generated = p.generated;
        out->item[k].next_bound = p.next_bound;
        out->item[k].length = p.length;
        out->item[k].stopped = stopped;
        out->item[k].rc = rc;
        if (rc != NP_OK) {
#pragma omp critical(np_mpi_rc)
            out->rc = out->rc == NP_OK ? rc : out->rc;
        }
    }
    if (listening) {
        __atomic_store_n(&ls.done, 1, __ATOMIC_RELAXED);
        pthread_join(tid, NULL);
    }
}

/* The boards of one TAG_BOARDS message on a worker, each with its resumed
 * state and, when rank 0 keeps a checkpoint, a journal that sends it their
 * progress. */
typedef struct board_job {
    uint64_t index; /* in rank 0's batch */
    double timeout; /* as rank 0's options have it for this board */
    bool has_resume;
    resumed resume;
    np_journal journal;
} board_job;

typedef struct board_jobs {
    board_job job[MPI_ITEMS];
    bool journal;
    bool recut_at_stop; /* the journals' */
} board_jobs;

static pthread_mutex_t send_lock = PTHREAD_MUTEX_INITIALIZER;

static void send_journal(msg_journal *m)
{
    /* the moves, when there are any, and their NUL: no more */
    size_t bytes = offsetof(msg_journal, moves) + (m->piece.length > 0 ? m->piece.length : 0) + 1;
    pthread_mutex_lock(&send_lock);
    MPI_Send(m, (int)bytes, MPI_BYTE, 0, TAG_JOURNAL, MPI_COMM_WORLD);
    pthread_mutex_unlock(&send_lock);
}

static void journal_piece_out(void *ctx, const np_iteration *it, const np_piece *p)
{
    const board_job *j = ctx;
    msg_journal m;
    memset(&m, 0, sizeof m);
    m.index = j->index;
    m.it = wire_of_iteration(it);
    m.piece = wire_of_piece(p);
    if (p->length > 0)
        memcpy(m.moves, p->moves, (size_t)p->length);
    send_journal(&m);
}

static void journal_iteration_out(void *ctx, const np_iteration *next)
{
    const board_job *j = ctx;
    msg_journal m;
    memset(&m, 0, sizeof m);
    m.index = j->index;
    m.iteration = 1;
    m.it = wire_of_iteration(next);
    send_journal(&m);
}

static void prepare_job(void *ctx, size_t k, np_search_opts *opts)
{
    board_jobs *bj = ctx;
    board_job *j = &bj->job[k];
    if (bj->journal)
        opts->journal = &j->journal;
    opts->timeout = j->timeout;
    if (j->has_resume)
        opts->resume = &j->resume.it;
}

static void serve_boards(const unsigned char *in, size_t bytes, msg_results *out, const np_geom *g,
                         const np_search_opts *o, int threads, np_algorithm algorithm)
{
    msg_boards mb;
    memcpy(&mb, in, sizeof mb);
    if (mb.count < 0 || mb.count > MPI_ITEMS)
        abort_run("a message with a wrong count", TAG_BOARDS, 0);
    board_jobs *bj = calloc(1, sizeof *bj);
    np_result *res = calloc(MPI_ITEMS, sizeof *res);
    np_board boards[MPI_ITEMS];
    if (!bj || !res)
        abort_run("out of memory", -1, -1);
    out->count = mb.count;
    out->rc = NP_OK;
    bj->journal = mb.journal != 0;
    bj->recut_at_stop = mb.journal == 2;
    for (int k = 0; k < mb.count; k++) {
        board_job *j = &bj->job[k];
        boards[k] = mb.item[k].board;
        j->index = mb.item[k].index;
        j->timeout = mb.item[k].timeout;
        j->journal = (np_journal){.piece = journal_piece_out,
                                  .iteration = journal_iteration_out,
                                  .recut_at_stop = bj->recut_at_stop,
                                  .ctx = j};
        if (mb.item[k].resume == 0)
            continue;
        if (mb.item[k].at > bytes - sizeof mb ||
            mb.item[k].resume > bytes - sizeof mb - mb.item[k].at ||
            !resume_get(&j->resume, in + sizeof mb + mb.item[k].at, mb.item[k].resume))
            abort_run("a resumed state that does not add up", TAG_BOARDS, 0);
        j->has_resume = true;
    }
    np_batch_opts bo = {
        .algorithm = algorithm, .threads = threads, .prepare = prepare_job, .prepare_ctx = bj};
    out->rc = np_batch_solve(res, boards, (size_t)mb.count, g, o, &bo);
    for (int k = 0; k < mb.count; k++) {
        out->item[k].index = mb.item[k].index;
        out->item[k].result = res[k];
        resume_free(&bj->job[k].resume);
    }
    free(res);
    free(bj);
}

int mpi_serve(const mpi_worker_ops *ops)
{
    np_geom g;
    np_search_opts o;
    bool open = false;
    int threads = ops->threads < 1 ? 1 : ops->threads > MPI_ITEMS ? MPI_ITEMS : ops->threads;
    void *buf = malloc(sizeof(msg_piece_results) > sizeof(msg_results) ? sizeof(msg_piece_results)
                                                                       : sizeof(msg_results));
    unsigned char *in = NULL;
    size_t incap = 0;
    msg_group_reply *rep = malloc(sizeof *rep);
    list_cache cache = {.lock = PTHREAD_MUTEX_INITIALIZER};
    if (!buf || !rep)
        abort_run("out of memory", -1, -1);
    for (;;) {
        MPI_Status st;
        wait_message(0, MPI_ANY_TAG, &st);
        int bytes;
        MPI_Get_count(&st, MPI_BYTE, &bytes);
        if (st.MPI_TAG == TAG_END) {
            MPI_Recv(NULL, 0, MPI_BYTE, 0, TAG_END, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            break;
        }
        if (st.MPI_TAG == TAG_STOP) {
            take_stop(&cache);
            continue;
        }
        if (st.MPI_TAG == TAG_CANCEL) {
            take_cancel(ops->cancel);
            continue;
        }
        if (st.MPI_TAG == TAG_GROUP) {
            msg_group grp;
            MPI_Recv(&grp, sizeof grp, MPI_BYTE, 0, TAG_GROUP, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            np_piece_list_close(cache.pl);
            cache.pl = NULL;
            if (open)
                ops->close(ops->ctx);
            char dir[400] = "";
            memset(rep, 0, sizeof *rep);
            rep->rc = ops->open(ops->ctx, grp.rows, grp.cols, &g, &o, dir, sizeof dir);
            open = rep->rc == 0;
            rep->threads = threads;
            if (open) {
                o.cancel = ops->cancel;
                o.threads = 1;
                if (ops->algorithm == NP_ALG_ASTAR) /* its boards side by side share its memory */
                    o.max_memory = cli_astar_share(o.max_memory, (size_t)grp.all, threads);
                group_reply(rep, &g, &o, dir);
            }
            MPI_Send(rep, sizeof *rep, MPI_BYTE, 0, TAG_GROUP_REPLY, MPI_COMM_WORLD);
            continue;
        }
        if (st.MPI_TAG != TAG_BOARDS && st.MPI_TAG != TAG_PIECES)
            abort_run("an unexpected message", st.MPI_TAG, 0);
        if ((size_t)bytes > incap) {
            unsigned char *grown = realloc(in, (size_t)bytes);
            if (!grown)
                abort_run("out of memory", -1, -1);
            in = grown;
            incap = (size_t)bytes;
        }
        MPI_Recv(in, bytes, MPI_BYTE, 0, st.MPI_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        if (st.MPI_TAG == TAG_BOARDS) {
            msg_results *mr = buf;
            if ((size_t)bytes < sizeof(msg_boards))
                abort_run("a short message", TAG_BOARDS, 0);
            if (open) {
                serve_boards(in, (size_t)bytes, mr, &g, &o, threads, ops->algorithm);
            } else {
                mr->count = 0; /* rank 0 sends none: the group was refused */
                mr->rc = NP_EINVAL;
            }
            mr->cancelled = ops->cancel && *ops->cancel;
            pthread_mutex_lock(&send_lock);
            MPI_Send(mr,
                     (int)(offsetof(msg_results, item) + (size_t)mr->count * sizeof mr->item[0]),
                     MPI_BYTE, 0, TAG_RESULTS, MPI_COMM_WORLD);
            pthread_mutex_unlock(&send_lock);
        } else {
            msg_piece_results *mr = buf;
            const msg_pieces *mp = (const msg_pieces *)(const void *)in;
            if ((size_t)bytes < offsetof(msg_pieces, index) || mp->count < 0 ||
                mp->count > MPI_ITEMS ||
                (size_t)bytes < offsetof(msg_pieces, index) + (size_t)mp->count * sizeof(uint64_t))
                abort_run("a short message", TAG_PIECES, 0);
            if (open) {
                serve_pieces(mp, mr, &g, &o, threads, &cache);
            } else {
                mr->count = 0;
                mr->rc = NP_EINVAL;
            }
            mr->cancelled = ops->cancel && *ops->cancel;
            MPI_Send(
                mr,
                (int)(offsetof(msg_piece_results, item) + (size_t)mr->count * sizeof mr->item[0]),
                MPI_BYTE, 0, TAG_PIECE_RESULTS, MPI_COMM_WORLD);
        }
    }
    np_piece_list_close(cache.pl);
    if (open)
        ops->close(ops->ctx);
    free(buf);
    free(in);
    free(rep);
    return 0;
}

/* ---- rank 0 ---------------------------------------------------------------------- */

/* The workers of the group being solved: how many boards or pieces each
 * takes at a time, and how many such messages it has (up to 2: the next one
 * waits at the worker while it searches, so that it never waits for us).
 * Messages go out with MPI_Isend from a buffer per worker and slot, so that
 * rank 0 never blocks in a send while a worker blocks sending its results. */
#define MPI_AHEAD 2

typedef struct crew {
    int threads[1024];
    int busy[1024];
    int head[1024]; /* the slot of its oldest message out */
    MPI_Request req[1024][MPI_AHEAD];
    unsigned char *buf[1024][MPI_AHEAD]; /* a message's bytes until its send completes */
    size_t cap[1024][MPI_AHEAD];
    int nbusy;
    msg_stop stop[1024];          /* the last stop sent to each worker, */
    MPI_Request stop_req[1024];   /* its send (MPI_REQUEST_NULL: done) */
    MPI_Request cancel_req[1024]; /* the send of TAG_CANCEL (MPI_REQUEST_NULL: none) */
    bool cancelled;               /* TAG_CANCEL went to every worker */
} crew;

/* The buffer of worker r's next message, of `bytes` bytes; NULL: no memory. */
static unsigned char *crew_buffer(crew *c, int r, size_t bytes)
{
    int slot = (c->head[r] + c->busy[r]) % MPI_AHEAD;
    if (c->cap[r][slot] < bytes) {
        unsigned char *grown = realloc(c->buf[r][slot], bytes);
        if (!grown)
            return NULL;
        c->buf[r][slot] = grown;
        c->cap[r][slot] = bytes;
    }
    return c->buf[r][slot];
}

/* Send worker r its next message, written into crew_buffer(c, r, bytes). */
static void crew_send(crew *c, int r, size_t bytes, int tag)
{
    int slot = (c->head[r] + c->busy[r]) % MPI_AHEAD;
    MPI_Isend(c->buf[r][slot], (int)bytes, MPI_BYTE, r, tag, MPI_COMM_WORLD, &c->req[r][slot]);
    c->busy[r]++;
    c->nbusy++;
}

/* Worker r answered its oldest message (it takes them in order): that send
 * is complete, its slot free. */
static void crew_answered(crew *c, int r)
{
    MPI_Wait(&c->req[r][c->head[r]], MPI_STATUS_IGNORE);
    c->head[r] = (c->head[r] + 1) % MPI_AHEAD;
    c->busy[r]--;
    c->nbusy--;
}

static void crew_free(crew *c)
{
    for (int r = 0; r < nranks && r < 1024; r++)
        for (int k = 0; k < MPI_AHEAD; k++)
            free(c->buf[r][k]);
    free(c);
}

/* A worker was told to stop (mpirun passes SIGINT and SIGTERM to every rank,
 * but not at once): rank 0 stops too, as if it had the signal first, before
 * it takes in that worker's cut results (a checkpoint then keeps them as
 * unfinished). Once only: rank 0 stopping already (`cancel`, its own flag)
 * raises nothing more, since a second signal would kill it before it writes
 * its checkpoint (the handler is reset by the first). */
static void worker_cancelled(int cancelled, const volatile int *cancel)
{
    if (cancelled && !(cancel && *cancel))
        raise(SIGTERM);
}

/* Open the group on every worker and compare its tables with ours. */
static int group_start(crew *c, const np_geom *g, const np_search_opts *o, const char *dir,
                       size_t all)
{
    msg_group grp = {g->rows, g->cols, all};
    for (int r = 1; r < nranks; r++)
        MPI_Send(&grp, sizeof grp, MPI_BYTE, r, TAG_GROUP, MPI_COMM_WORLD);
    msg_group_reply *mine = calloc(1, sizeof *mine), *rep = malloc(sizeof *rep);
    if (!mine || !rep) {
        free(mine);
        free(rep);
        return NP_ENOMEM;
    }
    group_reply(mine, g, o, dir);
    int rc = NP_OK;
    for (int r = 1; r < nranks; r++) {
        MPI_Status st;
        wait_message(r, TAG_GROUP_REPLY, &st);
        MPI_Recv(rep, sizeof *rep, MPI_BYTE, r, TAG_GROUP_REPLY, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        c->threads[r] = rep->threads;
        if (rep->rc != 0) {
            fprintf(stderr,
                    "npuzzle-mpi: rank %d could not open the tables for %dx%d boards (its "
                    "message above; exit %d there)\n",
                    r, g->rows, g->cols, rep->rc);
            rc = NP_EMISMATCH;
            continue;
        }
        if (rep->ntables != mine->ntables) {
            /* (a rank without the tables takes another heuristic: name the first table of
             * the rank that has them, and where the other looked) */
            const msg_group_reply *more = rep->ntables > mine->ntables ? rep : mine;
            fprintf(stderr,
                    "npuzzle-mpi: rank %d opened %d tables for %dx%d boards (in %s), rank 0 %d "
                    "(in %s); rank %d's first: %s; every rank needs the same tables\n",
                    r, rep->ntables, g->rows, g->cols, rep->dir[0] ? rep->dir : "?", mine->ntables,
                    mine->dir[0] ? mine->dir : "?", more == rep ? r : 0, more->table[0].path);
            rc = NP_EMISMATCH;
            continue;
        }
        for (int p = 0; p < mine->ntables; p++)
            if (rep->table[p].checksum != mine->table[p].checksum) {
                fprintf(stderr,
                        "npuzzle-mpi: rank %d: table %s (checksum %016llx) differs from rank "
                        "0's %s (%016llx); every rank needs the same tables\n",
                        r, rep->table[p].path, (unsigned long long)rep->table[p].checksum,
                        mine->table[p].path, (unsigned long long)mine->table[p].checksum);
                rc = NP_EMISMATCH;
            }
        if (rc == NP_OK && rep->digest != mine->digest) {
            fprintf(stderr,
                    "npuzzle-mpi: rank %d holds other tables for the dual lookups than rank 0 "
                    "(npuzzle gen --dual builds them); every rank needs the same tables\n",
                    r);
            rc = NP_EMISMATCH;
        }
    }
    free(mine);
    free(rep);
    return rc;
}

/* Rank 0's own search threads take work under this mutex, as the main thread
 * does when it hands work out and takes results in. */
typedef struct local {
    pthread_mutex_t lock;
    const np_board *boards;
    const np_geom *g;
    const np_search_opts *opts;
    /* a batch */
    np_result *results;
    size_t m, next, done;
    const np_batch_opts *bopts;
    const np_journal **journal; /* each board's, from bopts->prepare (or NULL) */
    int first_err;
    /* pieces */
    np_piece_list *pl;
    np_piece_queue *q;
    const np_iteration *it;
    size_t found; /* the first piece known to hold a solution (SIZE_MAX: none) */
    int piece_rc;
} local;

/* The options of board i of a batch: bopts->prepare's (a checkpoint's journal
 * and resumed state), its journal kept for the messages of the worker that
 * solves it. Not under l->lock: prepare takes the checkpoint's own. */
static np_search_opts board_opts(local *l, size_t i)
{
    np_search_opts o = *l->opts;
    if (l->bopts->prepare) {
        l->bopts->prepare(l->bopts->prepare_ctx, i, &o);
        l->journal[i] = o.journal;
    }
    return o;
}

static void *local_boards(void *arg)
{
    local *l = arg;
    np_batch_opts one = {.algorithm = l->bopts->algorithm, .threads = 1};
    for (;;) {
        pthread_mutex_lock(&l->lock);
        bool cancelled = l->opts->cancel && *l->opts->cancel;
        size_t i = l->next < l->m && !cancelled ? l->next++ : SIZE_MAX;
        pthread_mutex_unlock(&l->lock);
        if (i == SIZE_MAX)
            return NULL;
        np_search_opts o = board_opts(l, i);
        np_result r;
        int rc = np_batch_solve(&r, &l->boards[i], 1, l->g, &o, &one);
        pthread_mutex_lock(&l->lock);
        l->results[i] = r;
        l->done++;
        if (rc != NP_OK && l->first_err == NP_OK)
            l->first_err = rc;
        if (l->bopts->progress)
            l->bopts->progress(l->bopts->progress_ctx, i, l->done, l->m, &l->results[i]);
        pthread_mutex_unlock(&l->lock);
    }
}

/* Piece p finished (lock held): into the queue, and a solution lowers the
 * first piece that holds one. @return the queue's error. */
static int local_piece_done(local *l, const np_piece *p, bool stopped)
{
    int rc = np_piece_queue_done(l->q, p, stopped);
    if (rc == NP_OK && !stopped && p->length >= 0 && p->index < l->found)
        l->found = p->index;
    return rc;
}

static void *local_pieces(void *arg)
{
    local *l = arg;
    for (;;) {
        pthread_mutex_lock(&l->lock);
        size_t i = np_piece_queue_next(l->q);
        pthread_mutex_unlock(&l->lock);
        if (i == SIZE_MAX)
            return NULL;
        np_piece p;
        char moves[NP_MAX_PATH + 1];
        bool stopped;
        int rc = np_piece_list_search(l->pl, i, &p, moves, &stopped);
        pthread_mutex_lock(&l->lock);
        if (rc == NP_OK)
            rc = local_piece_done(l, &p, stopped);
        /* Cut our pieces after it at once (the workers' at the main thread's
         * next round); only now that the queue knows of the solution, so
         * that a piece cut this way counts as work past it, not a limit. */
        if (rc == NP_OK && !stopped && p.length >= 0)
            np_piece_list_stop(l->pl, i + 1);
        if (rc != NP_OK && l->piece_rc == NP_OK)
            l->piece_rc = rc;
        pthread_mutex_unlock(&l->lock);
    }
}

/* Start rank 0's threads on `fn`; *n receives how many started. */
static void local_start(pthread_t *tid, int *n, int want, void *(*fn)(void *), local *l)
{
    *n = 0;
    for (int t = 0; t < want && t < 64; t++)
        if (pthread_create(&tid[t], NULL, fn, l) == 0)
            (*n)++;
}

static void local_join(pthread_t *tid, int n)
{
    for (int t = 0; t < n; t++)
        pthread_join(tid[t], NULL);
}

/* Tell every worker to stop the pieces `from` and after of the list, without
 * blocking: a worker may be sending its results meanwhile. The previous stop
 * to a worker is complete before its buffer is used again (each worker takes
 * every stop: its main loop or its listening thread). */
/* The MPI checker cannot pair the waits with the sends across calls (each
 * request starts as MPI_REQUEST_NULL, and stops_wait ends every one). */
/* NOLINTBEGIN(clang-analyzer-optin.mpi.MPI-Checker) */
static void stop_workers(crew *c, const wire_list *list, size_t from)
{
    for (int r = 1; r < nranks; r++) {
        MPI_Wait(&c->stop_req[r], MPI_STATUS_IGNORE);
        c->stop[r] = (msg_stop){.list = *list, .from = from};
        MPI_Isend(&c->stop[r], sizeof c->stop[r], MPI_BYTE, r, TAG_STOP, MPI_COMM_WORLD,
                  &c->stop_req[r]);
    }
}

static void stops_wait(crew *c)
{
    for (int r = 1; r < nranks; r++)
        MPI_Wait(&c->stop_req[r], MPI_STATUS_IGNORE);
}

/* Rank 0 was signalled during a batch: tell every worker to stop its boards
 * as if it had the signal too (mpirun does not always pass it on), once,
 * without blocking; cancels_wait completes the sends. */
static void cancel_workers(crew *c)
{
    if (c->cancelled)
        return;
    c->cancelled = true;
    for (int r = 1; r < nranks; r++)
        MPI_Isend(NULL, 0, MPI_BYTE, r, TAG_CANCEL, MPI_COMM_WORLD, &c->cancel_req[r]);
}

static void cancels_wait(crew *c)
{
    for (int r = 1; r < nranks; r++)
        MPI_Wait(&c->cancel_req[r], MPI_STATUS_IGNORE);
}
/* NOLINTEND(clang-analyzer-optin.mpi.MPI-Checker) */

/* The pieces of one iteration over the workers and rank 0's threads. */
typedef struct pieces_ctx {
    local *l;
    crew *c;
    int threads0;
    msg_piece_results *in;
} pieces_ctx;

static int run_pieces(void *ctx, const np_iteration *it, np_piece_queue *q)
{
    pieces_ctx *pc = ctx;
    local *l = pc->l;
    crew *c = pc->c;
    l->q = q;
    l->it = it;
    l->found = SIZE_MAX;
    l->piece_rc = NP_OK;
    np_search_opts o = *l->opts;
    o.runner = NULL;
    o.journal = NULL;
    o.resume = NULL;
    o.threads = 1;
    o.max_nodes = 0; /* the run's limits: np_piece_queue_left below */
    o.timeout = 0;
    int rc = np_piece_list_open(&l->pl, &l->boards[0], l->g, &o, it);
    if (rc != NP_OK)
        return rc;
    wire_list list = wire_of_list(&l->boards[0], it);
    size_t stopped_from = SIZE_MAX; /* what the workers were told */
    pthread_mutex_lock(&l->lock);
    uint64_t nodes_left;
    double seconds_left;
    bool halted = np_piece_queue_left(q, &nodes_left, &seconds_left);
    np_piece_list_limit(l->pl, nodes_left, seconds_left);
    pthread_mutex_unlock(&l->lock);
    pthread_t tid[64];
    int nlocal = 0;
    if (!halted)
        local_start(tid, &nlocal, pc->threads0, local_pieces, l);
    for (;;) {
        /* A solution, or a limit of the run: cut what is out. */
        pthread_mutex_lock(&l->lock);
        halted = np_piece_queue_left(q, &nodes_left, &seconds_left);
        size_t from = halted ? 0 : l->found == SIZE_MAX ? SIZE_MAX : l->found + 1;
        pthread_mutex_unlock(&l->lock);
        if (from < stopped_from) {
            np_piece_list_stop(l->pl, from);
            stop_workers(c, &list, from);
            stopped_from = from;
        }
        if (!halted)
            np_piece_list_limit(l->pl, nodes_left, seconds_left);
        for (int r = 1; r < nranks; r++) {
            if (c->busy[r] >= MPI_AHEAD)
                continue;
            msg_pieces *out = (msg_pieces *)(void *)crew_buffer(c, r, sizeof(msg_pieces));
            if (!out) {
                rc = rc == NP_OK ? NP_ENOMEM : rc;
                break;
            }
            pthread_mutex_lock(&l->lock);
            int n = 0;
            size_t i;
            while (n < c->threads[r] && (i = np_piece_queue_next(q)) != SIZE_MAX)
                out->index[n++] = i;
            pthread_mutex_unlock(&l->lock);
            if (n == 0)
                continue;
            out->list = list;
            out->max_nodes = nodes_left;
            out->seconds = seconds_left;
            out->count = n;
            crew_send(c, r, offsetof(msg_pieces, index) + (size_t)n * sizeof out->index[0],
                      TAG_PIECES);
        }
        if (c->nbusy == 0)
            break;
        MPI_Status st;
        /* not for ever: a limit of the run is looked at every 10 ms */
        if (!wait_message_for(MPI_ANY_SOURCE, TAG_PIECE_RESULTS, &st, 10))
            continue;
        msg_piece_results *in = pc->in;
        MPI_Recv(in, sizeof *in, MPI_BYTE, st.MPI_SOURCE, TAG_PIECE_RESULTS, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
        crew_answered(c, st.MPI_SOURCE);
        worker_cancelled(in->cancelled, l->opts->cancel);
        if (in->rc != NP_OK && rc == NP_OK)
            rc = in->rc;
        pthread_mutex_lock(&l->lock);
        for (int k = 0; k < in->count; k++) {
            if (in->item[k].rc != NP_OK)
                continue; /* not searched: left unfinished (the error is reported) */
            np_piece p = {.index = in->item[k].index,
                          .expanded = in->item[k].expanded,
                          .generated = in->item[k].generated,
                          .next_bound = in->item[k].next_bound,
                          .length = in->item[k].length,
                          .moves = in->item[k].length >= 0 ? in->item[k].moves : NULL};
            int drc = local_piece_done(l, &p, in->item[k].stopped != 0);
            if (drc != NP_OK && rc == NP_OK)
                rc = drc;
        }
        pthread_mutex_unlock(&l->lock);
    }
    local_join(tid, nlocal);
    stops_wait(c);
    /* Every request is complete here: the pieces' in crew_answered (the loop
     * ends when none is out), the stops' in stops_wait; the analyzer follows
     * neither. */
    /* NOLINTBEGIN(clang-analyzer-optin.mpi.MPI-Checker) */
    np_piece_list_close(l->pl);
    l->pl = NULL;
    return rc != NP_OK ? rc : l->piece_rc;
    /* NOLINTEND(clang-analyzer-optin.mpi.MPI-Checker) */
}

/* A worker's journal message for board m->index: to that board's journal. */
static void forward_journal(const local *l, const msg_journal *m, int from)
{
    const np_journal *j = m->index < l->m ? l->journal[m->index] : NULL;
    if (!j)
        return;
    if (!m->iteration && m->piece.length > NP_MAX_PATH)
        abort_run("a journal with a path too long", TAG_JOURNAL, from);
    np_iteration it = iteration_of_wire(&m->it);
    if (m->iteration) {
        if (j->iteration)
            j->iteration(j->ctx, &it);
    } else if (j->piece) {
        np_piece p = piece_of_wire(&m->piece, m->moves);
        j->piece(j->ctx, &it, &p);
    }
}

/* Fill worker r's next message with up to its threads' worth of boards, each
 * with its resumed state. @return how many boards (0: none left), or -1 when
 * out of memory. */
static int boards_message(local *l, crew *c, int r, const volatile int *cancel)
{
    size_t idx[MPI_ITEMS];
    int n = 0;
    pthread_mutex_lock(&l->lock);
    while (n < c->threads[r] && n < MPI_ITEMS && l->next < l->m && !(cancel && *cancel))
        idx[n++] = l->next++;
    pthread_mutex_unlock(&l->lock);
    if (n == 0)
        return 0;
    const np_iteration *resume[MPI_ITEMS];
    double timeout[MPI_ITEMS];
    size_t tail = 0;
    int journal = 0;
    for (int k = 0; k < n; k++) {
        np_search_opts o = board_opts(l, idx[k]);
        resume[k] = o.resume;
        timeout[k] = o.timeout;
        tail += resume_bytes(o.resume);
        if (o.journal && journal < 2)
            journal = o.journal->recut_at_stop ? 2 : 1;
    }
    unsigned char *buf = crew_buffer(c, r, sizeof(msg_boards) + tail);
    if (!buf)
        return -1;
    msg_boards mb;
    memset(&mb, 0, sizeof mb);
    mb.count = n;
    mb.journal = journal;
    size_t at = 0;
    for (int k = 0; k < n; k++) {
        mb.item[k].index = idx[k];
        mb.item[k].board = l->boards[idx[k]];
        mb.item[k].at = at;
        mb.item[k].timeout = timeout[k];
        mb.item[k].resume = resume_bytes(resume[k]);
        if (resume[k])
            resume_put(buf + sizeof mb + at, resume[k]);
        at += mb.item[k].resume;
    }
    memcpy(buf, &mb, sizeof mb);
    crew_send(c, r, sizeof mb + tail, TAG_BOARDS);
    return n;
}

int mpi_solve_batch(np_result *results, const np_board *boards, size_t m, size_t all,
                    const np_geom *g, const np_search_opts *opts, const np_batch_opts *bopts,
                    const char *dir)
{
    crew *c = calloc(1, sizeof *c);
    if (c)
        for (int r = 0; r < 1024; r++)
            c->stop_req[r] = c->cancel_req[r] = MPI_REQUEST_NULL;
    msg_results *mr = malloc(sizeof *mr);
    msg_piece_results *mq = malloc(sizeof *mq);
    msg_journal *mj = malloc(sizeof *mj);
    /* NOLINTNEXTLINE(bugprone-sizeof-expression): pointers, sizeof(np_journal *) is meant */
    const np_journal **journal = calloc(m ? m : 1, sizeof *journal);
    int rc = c && mr && mq && mj && journal ? NP_OK : NP_ENOMEM;
    if (rc == NP_OK && nranks > 1024)
        rc = NP_EUNSUPPORTED;
    if (rc == NP_OK)
        rc = group_start(c, g, opts, dir, all);
    int threads0 = bopts->threads > 0 ? bopts->threads : 1;
    local l = {.lock = PTHREAD_MUTEX_INITIALIZER,
               .boards = boards,
               .g = g,
               .opts = opts,
               .results = results,
               .m = m,
               .bopts = bopts,
               .journal = journal,
               .first_err = NP_OK};
    if (rc == NP_OK && m == 1 && bopts->algorithm == NP_ALG_IDA) {
        /* One board: its pieces over every rank's threads. */
        int total = threads0;
        for (int r = 1; r < nranks; r++)
            total += c->threads[r];
        pieces_ctx pc = {.l = &l, .c = c, .threads0 = threads0, .in = mq};
        np_piece_runner runner = {.run = run_pieces, .ctx = &pc};
        np_search_opts o = *opts;
        o.runner = &runner;
        np_batch_opts b = *bopts;
        b.threads = total;
        /* np_batch_solve calls prepare (the checkpoint's journal and
         * resumed state) and progress as for one process. */
        rc = np_batch_solve(results, boards, 1, g, &o, &b);
    } else if (rc == NP_OK) {
        /* A batch: boards to whoever is free, as many as it has threads,
         * each with its resumed state; the workers send their journal, which
         * goes to the checkpoint as if the boards were solved here. */
        for (size_t i = 0; i < m; i++) {
            memset(&results[i], 0, sizeof results[i]);
            results[i].status = NP_STATUS_LIMIT; /* until it is solved */
            results[i].error = NP_ELIMIT;
            results[i].length = -1;
        }
        const volatile int *cancel = opts->cancel;
        np_search_opts o1 = *opts;
        o1.threads = 1;
        if (bopts->algorithm == NP_ALG_ASTAR)
            o1.max_memory = cli_astar_share(o1.max_memory, all, threads0);
        l.opts = &o1;
        pthread_t tid[64];
        int nlocal;
        local_start(tid, &nlocal, threads0, local_boards, &l);
        for (;;) {
            for (int r = 1; r < nranks; r++) {
                if (c->busy[r] >= MPI_AHEAD)
                    continue;
                if (boards_message(&l, c, r, cancel) < 0) {
                    pthread_mutex_lock(&l.lock);
                    l.first_err = l.first_err == NP_OK ? NP_ENOMEM : l.first_err;
                    l.next = m; /* nothing more goes out */
                    pthread_mutex_unlock(&l.lock);
                }
            }
            if (c->nbusy == 0)
                break;
            /* a signal here stops the workers' boards too, not only the
             * handing out of more: looked at every 10 ms */
            if (cancel && *cancel)
                cancel_workers(c);
            MPI_Status st;
            if (!wait_message_for(MPI_ANY_SOURCE, MPI_ANY_TAG, &st, 10))
                continue;
            if (st.MPI_TAG == TAG_JOURNAL) {
                memset(mj, 0, sizeof *mj); /* the moves end in NUL whatever came */
                MPI_Recv(mj, sizeof *mj - 1, MPI_BYTE, st.MPI_SOURCE, TAG_JOURNAL, MPI_COMM_WORLD,
                         MPI_STATUS_IGNORE);
                forward_journal(&l, mj, st.MPI_SOURCE);
                continue;
            }
            if (st.MPI_TAG != TAG_RESULTS)
                abort_run("an unexpected message", st.MPI_TAG, st.MPI_SOURCE);
            MPI_Recv(mr, sizeof *mr, MPI_BYTE, st.MPI_SOURCE, TAG_RESULTS, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
            crew_answered(c, st.MPI_SOURCE);
            worker_cancelled(mr->cancelled, cancel);
            pthread_mutex_lock(&l.lock);
            if (mr->rc != NP_OK && l.first_err == NP_OK)
                l.first_err = mr->rc;
            for (int k = 0; k < mr->count && k < MPI_ITEMS; k++) {
                size_t i = mr->item[k].index;
                if (i >= m)
                    abort_run("a result for a board it was not sent", TAG_RESULTS, st.MPI_SOURCE);
                results[i] = mr->item[k].result;
                l.done++;
                if (bopts->progress)
                    bopts->progress(bopts->progress_ctx, i, l.done, m, &results[i]);
            }
            pthread_mutex_unlock(&l.lock);
        }
        local_join(tid, nlocal);
        cancels_wait(c);
        rc = l.first_err;
    }
    /* Every request was waited for in crew_answered: the loops above end only
     * when no message is out (nbusy 0), which the analyzer cannot follow. */
    /* NOLINTBEGIN(clang-analyzer-optin.mpi.MPI-Checker) */
    if (c)
        crew_free(c);
    free(mr);
    free(mq);
    free(mj);
    free(journal);
    return rc;
    /* NOLINTEND(clang-analyzer-optin.mpi.MPI-Checker) */
}
