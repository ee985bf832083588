/* solve_mpi.c - npuzzle-mpi: the messages between rank 0 and the workers
 * (solve_mpi.h). Only the main thread of a rank calls MPI; the threads that
 * search on rank 0 meet the main thread under a mutex. Ranks wait for
 * messages by probing and sleeping a little, not by spinning: the ranks of a
 * run may share cores with each other's search threads. */
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

enum {
    TAG_GROUP = 1,     /* rank 0 -> worker: msg_group */
    TAG_GROUP_REPLY,   /* worker -> rank 0: msg_group_reply */
    TAG_BOARDS,        /* rank 0 -> worker: msg_boards */
    TAG_RESULTS,       /* worker -> rank 0: msg_results */
    TAG_PIECES,        /* rank 0 -> worker: msg_pieces */
    TAG_PIECE_RESULTS, /* worker -> rank 0: msg_piece_results */
    TAG_END            /* rank 0 -> worker: stop */
};

/* At most this many boards or pieces in one message: a worker takes as many
 * as it has threads, up to this. */
#define MPI_ITEMS 64

typedef struct msg_group {
    int rows, cols;
} msg_group;

typedef struct msg_group_reply {
    int rc;      /* an exit code: EXIT_OK (0) when the worker is ready */
    int threads; /* how many boards or pieces it takes at a time */
    int ntables;
    struct {
        uint64_t checksum;
        char path[512];
    } table[NP_PARTITION_MAX];
} msg_group_reply;

typedef struct msg_boards {
    int count;
    struct {
        uint64_t index;
        np_board board;
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

typedef struct msg_pieces {
    np_board board;
    int bound, depth;
    uint64_t npieces;
    int count;
    uint64_t index[MPI_ITEMS];
} msg_pieces;

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
    MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &my_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nranks);
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

/* Wait for a message from `source` (MPI_ANY_SOURCE: any) with tag `tag`
 * (MPI_ANY_TAG: any), probing every millisecond. */
static void wait_message(int source, int tag, MPI_Status *st)
{
    int flag = 0;
    struct timespec pause = {0, 1000000};
    for (;;) {
        MPI_Iprobe(source, tag, MPI_COMM_WORLD, &flag, st);
        if (flag)
            return;
        nanosleep(&pause, NULL);
    }
}

/* ---- a worker ---------------------------------------------------------------- */

/* Out of memory, or a message this rank does not know: the run ends. */
static _Noreturn void abort_run(const char *why, int tag)
{
    fprintf(stderr, "npuzzle-mpi: rank %d: %s", my_rank, why);
    if (tag >= 0)
        fprintf(stderr, " (tag %d) from rank 0", tag);
    fputc('\n', stderr);
    MPI_Abort(MPI_COMM_WORLD, 3);
    exit(3); /* MPI_Abort does not return; this says so */
}

static void group_reply(msg_group_reply *rep, const np_geom *g, const np_search_opts *o,
                        const char *dir)
{
    rep->ntables = 0;
    if (o->heuristic != NP_H_PDB || !o->pdbs)
        return;
    const np_partition *part = np_pdbset_partition(o->pdbs);
    rep->ntables = part->npatterns;
    for (int p = 0; p < part->npatterns; p++) {
        char name[256];
        np_pdb_filename(name, sizeof name, g, part->patterns[p].tiles, part->patterns[p].ntiles);
        snprintf(rep->table[p].path, sizeof rep->table[p].path, "%s/%s", dir, name);
        rep->table[p].checksum = np_pdbset_table_checksum(o->pdbs, p);
    }
}

/* The list of pieces a worker searches: built again only when the board or
 * the iteration changes. */
typedef struct list_cache {
    np_piece_list *pl;
    np_board board;
    int bound, depth;
    uint64_t npieces;
} list_cache;

static void serve_pieces(const msg_pieces *in, msg_piece_results *out, const np_geom *g,
                         const np_search_opts *o, int threads, list_cache *lc)
{
    out->count = in->count;
    out->rc = NP_OK;
    if (!lc->pl || memcmp(&lc->board, &in->board, sizeof in->board) != 0 ||
        lc->bound != in->bound || lc->depth != in->depth || lc->npieces != in->npieces) {
        np_piece_list_close(lc->pl);
        lc->pl = NULL;
        np_iteration it = {.bound = in->bound, .depth = in->depth, .npieces = in->npieces};
        out->rc = np_piece_list_open(&lc->pl, &in->board, g, o, &it);
        if (out->rc != NP_OK) {
            out->count = 0;
            return;
        }
        lc->board = in->board;
        lc->bound = in->bound;
        lc->depth = in->depth;
        lc->npieces = in->npieces;
    }
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
}

int mpi_serve(const mpi_worker_ops *ops)
{
    np_geom g;
    np_search_opts o;
    bool open = false;
    int threads = ops->threads < 1 ? 1 : ops->threads > MPI_ITEMS ? MPI_ITEMS : ops->threads;
    void *buf = malloc(sizeof(msg_piece_results) > sizeof(msg_results) ? sizeof(msg_piece_results)
                                                                       : sizeof(msg_results));
    void *in =
        malloc(sizeof(msg_boards) > sizeof(msg_pieces) ? sizeof(msg_boards) : sizeof(msg_pieces));
    msg_group_reply *rep = malloc(sizeof *rep);
    list_cache cache = {0};
    if (!buf || !in || !rep)
        abort_run("out of memory", -1);
    for (;;) {
        MPI_Status st;
        wait_message(0, MPI_ANY_TAG, &st);
        int bytes;
        MPI_Get_count(&st, MPI_BYTE, &bytes);
        if (st.MPI_TAG == TAG_END) {
            MPI_Recv(NULL, 0, MPI_BYTE, 0, TAG_END, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            break;
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
                group_reply(rep, &g, &o, dir);
            }
            MPI_Send(rep, sizeof *rep, MPI_BYTE, 0, TAG_GROUP_REPLY, MPI_COMM_WORLD);
        } else if (st.MPI_TAG == TAG_BOARDS) {
            msg_boards *mb = in;
            msg_results *mr = buf;
            MPI_Recv(mb, bytes, MPI_BYTE, 0, TAG_BOARDS, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            np_board boards[MPI_ITEMS];
            np_result *res = calloc(MPI_ITEMS, sizeof *res);
            if (!res)
                abort_run("out of memory", -1);
            for (int k = 0; k < mb->count; k++)
                boards[k] = mb->item[k].board;
            np_batch_opts bo = {.threads = threads};
            mr->count = mb->count;
            mr->rc = open ? np_batch_solve(res, boards, (size_t)mb->count, &g, &o, &bo) : NP_EINVAL;
            mr->cancelled = ops->cancel && *ops->cancel;
            for (int k = 0; k < mb->count; k++) {
                mr->item[k].index = mb->item[k].index;
                mr->item[k].result = res[k];
            }
            free(res);
            MPI_Send(mr,
                     (int)(offsetof(msg_results, item) + (size_t)mr->count * sizeof mr->item[0]),
                     MPI_BYTE, 0, TAG_RESULTS, MPI_COMM_WORLD);
        } else if (st.MPI_TAG == TAG_PIECES) {
            msg_pieces *mp = in;
            msg_piece_results *mr = buf;
            MPI_Recv(mp, bytes, MPI_BYTE, 0, TAG_PIECES, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
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
        } else {
            abort_run("an unexpected message", st.MPI_TAG);
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
#define MPI_SLOT (sizeof(msg_boards) > sizeof(msg_pieces) ? sizeof(msg_boards) : sizeof(msg_pieces))

typedef struct crew {
    int threads[1024];
    int busy[1024];
    int head[1024]; /* the slot of its oldest message out */
    MPI_Request req[1024][MPI_AHEAD];
    unsigned char *slots; /* nranks * MPI_AHEAD buffers of MPI_SLOT bytes */
    int nbusy;
} crew;

static void crew_send(crew *c, int r, const void *msg, size_t bytes, int tag)
{
    int slot = (c->head[r] + c->busy[r]) % MPI_AHEAD;
    unsigned char *buf = c->slots + ((size_t)r * MPI_AHEAD + (size_t)slot) * MPI_SLOT;
    memcpy(buf, msg, bytes);
    MPI_Isend(buf, (int)bytes, MPI_BYTE, r, tag, MPI_COMM_WORLD, &c->req[r][slot]);
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

/* A worker was told to stop (mpirun passes SIGINT and SIGTERM to every rank,
 * but not at once): rank 0 stops too, as if it had the signal first, before
 * it takes in that worker's cut results (a checkpoint then keeps them as
 * unfinished). */
static void worker_cancelled(int cancelled)
{
    if (cancelled)
        raise(SIGTERM);
}

/* Open the group on every worker and compare its tables with ours. */
static int group_start(crew *c, const np_geom *g, const np_search_opts *o, const char *dir)
{
    msg_group grp = {g->rows, g->cols};
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
    unsigned char *slots = c->slots;
    memset(c, 0, sizeof *c);
    c->slots = slots;
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
            fprintf(stderr, "npuzzle-mpi: rank %d opened %d tables for %dx%d boards, rank 0 %d\n",
                    r, rep->ntables, g->rows, g->cols, mine->ntables);
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
    int first_err;
    /* pieces */
    np_piece_list *pl;
    np_piece_queue *q;
    const np_iteration *it;
    int piece_rc;
} local;

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
        np_result r;
        int rc = np_batch_solve(&r, &l->boards[i], 1, l->g, l->opts, &one);
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
            rc = np_piece_queue_done(l->q, &p, stopped);
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

/* The pieces of one iteration over the workers and rank 0's threads. */
typedef struct pieces_ctx {
    local *l;
    crew *c;
    int threads0;
    msg_pieces *out;
    msg_piece_results *in;
} pieces_ctx;

static int run_pieces(void *ctx, const np_iteration *it, np_piece_queue *q)
{
    pieces_ctx *pc = ctx;
    local *l = pc->l;
    crew *c = pc->c;
    l->q = q;
    l->it = it;
    l->piece_rc = NP_OK;
    np_search_opts o = *l->opts;
    o.runner = NULL;
    o.journal = NULL;
    o.resume = NULL;
    o.threads = 1;
    int rc = np_piece_list_open(&l->pl, &l->boards[0], l->g, &o, it);
    if (rc != NP_OK)
        return rc;
    pthread_t tid[64];
    int nlocal;
    local_start(tid, &nlocal, pc->threads0, local_pieces, l);
    msg_pieces *out = pc->out;
    out->board = l->boards[0];
    out->bound = it->bound;
    out->depth = it->depth;
    out->npieces = it->npieces;
    for (;;) {
        for (int r = 1; r < nranks; r++) {
            if (c->busy[r] >= MPI_AHEAD)
                continue;
            pthread_mutex_lock(&l->lock);
            int n = 0;
            size_t i;
            while (n < c->threads[r] && (i = np_piece_queue_next(q)) != SIZE_MAX)
                out->index[n++] = i;
            pthread_mutex_unlock(&l->lock);
            if (n == 0)
                continue;
            out->count = n;
            crew_send(c, r, out, offsetof(msg_pieces, index) + (size_t)n * sizeof out->index[0],
                      TAG_PIECES);
        }
        if (c->nbusy == 0)
            break;
        MPI_Status st;
        wait_message(MPI_ANY_SOURCE, TAG_PIECE_RESULTS, &st);
        msg_piece_results *in = pc->in;
        MPI_Recv(in, sizeof *in, MPI_BYTE, st.MPI_SOURCE, TAG_PIECE_RESULTS, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
        crew_answered(c, st.MPI_SOURCE);
        worker_cancelled(in->cancelled);
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
            int drc = np_piece_queue_done(q, &p, in->item[k].stopped != 0);
            if (drc != NP_OK && rc == NP_OK)
                rc = drc;
        }
        pthread_mutex_unlock(&l->lock);
    }
    local_join(tid, nlocal);
    np_piece_list_close(l->pl);
    l->pl = NULL;
    return rc != NP_OK ? rc : l->piece_rc;
}

int mpi_solve_batch(np_result *results, const np_board *boards, size_t m, const np_geom *g,
                    const np_search_opts *opts, const np_batch_opts *bopts, const char *dir)
{
    crew *c = malloc(sizeof *c);
    msg_boards *mb = malloc(sizeof *mb);
    msg_results *mr = malloc(sizeof *mr);
    msg_pieces *mp = malloc(sizeof *mp);
    msg_piece_results *mq = malloc(sizeof *mq);
    if (c)
        c->slots = malloc((size_t)nranks * MPI_AHEAD * MPI_SLOT);
    int rc = c && c->slots && mb && mr && mp && mq ? NP_OK : NP_ENOMEM;
    if (rc == NP_OK && nranks > 1024)
        rc = NP_EUNSUPPORTED;
    if (rc == NP_OK)
        rc = group_start(c, g, opts, dir);
    int threads0 = bopts->threads > 0 ? bopts->threads : 1;
    local l = {.lock = PTHREAD_MUTEX_INITIALIZER,
               .boards = boards,
               .g = g,
               .opts = opts,
               .results = results,
               .m = m,
               .bopts = bopts,
               .first_err = NP_OK};
    if (rc == NP_OK && m == 1 && bopts->algorithm == NP_ALG_IDA) {
        /* One board: its pieces over every rank's threads. */
        int total = threads0;
        for (int r = 1; r < nranks; r++)
            total += c->threads[r];
        pieces_ctx pc = {.l = &l, .c = c, .threads0 = threads0, .out = mp, .in = mq};
        np_piece_runner runner = {.run = run_pieces, .ctx = &pc};
        np_search_opts o = *opts;
        o.runner = &runner;
        np_batch_opts b = *bopts;
        b.threads = total;
        /* np_batch_solve calls prepare (the checkpoint's journal and
         * resumed state) and progress as for one process. */
        rc = np_batch_solve(results, boards, 1, g, &o, &b);
    } else if (rc == NP_OK) {
        /* A batch: boards to whoever is free, as many as it has threads. */
        for (size_t i = 0; i < m; i++) {
            memset(&results[i], 0, sizeof results[i]);
            results[i].status = NP_STATUS_LIMIT; /* until it is solved */
            results[i].error = NP_ELIMIT;
            results[i].length = -1;
        }
        const volatile int *cancel = opts->cancel;
        np_search_opts o1 = *opts;
        o1.threads = 1;
        l.opts = &o1;
        pthread_t tid[64];
        int nlocal;
        local_start(tid, &nlocal, threads0, local_boards, &l);
        for (;;) {
            for (int r = 1; r < nranks; r++) {
                if (c->busy[r] >= MPI_AHEAD)
                    continue;
                pthread_mutex_lock(&l.lock);
                int n = 0;
                while (n < c->threads[r] && l.next < m && !(cancel && *cancel)) {
                    mb->item[n].index = l.next;
                    mb->item[n++].board = boards[l.next++];
                }
                pthread_mutex_unlock(&l.lock);
                if (n == 0)
                    continue;
                mb->count = n;
                crew_send(c, r, mb, offsetof(msg_boards, item) + (size_t)n * sizeof mb->item[0],
                          TAG_BOARDS);
            }
            if (c->nbusy == 0)
                break;
            MPI_Status st;
            wait_message(MPI_ANY_SOURCE, TAG_RESULTS, &st);
            MPI_Recv(mr, sizeof *mr, MPI_BYTE, st.MPI_SOURCE, TAG_RESULTS, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
            crew_answered(c, st.MPI_SOURCE);
            worker_cancelled(mr->cancelled);
            pthread_mutex_lock(&l.lock);
            if (mr->rc != NP_OK && l.first_err == NP_OK)
                l.first_err = mr->rc;
            for (int k = 0; k < mr->count; k++) {
                size_t i = mr->item[k].index;
                results[i] = mr->item[k].result;
                l.done++;
                if (bopts->progress)
                    bopts->progress(bopts->progress_ctx, i, l.done, m, &results[i]);
            }
            pthread_mutex_unlock(&l.lock);
        }
        local_join(tid, nlocal);
        rc = l.first_err;
    }
    /* Every request was waited for in crew_answered: the loops above end only
     * when no message is out (nbusy 0), which the analyzer cannot follow. */
    /* NOLINTBEGIN(clang-analyzer-optin.mpi.MPI-Checker) */
    if (c)
        free(c->slots);
    free(c);
    free(mb);
    free(mr);
    free(mp);
    free(mq);
    return rc;
    /* NOLINTEND(clang-analyzer-optin.mpi.MPI-Checker) */
}
