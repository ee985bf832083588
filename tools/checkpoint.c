/* checkpoint.c - `npuzzle solve --checkpoint FILE` (the format: checkpoint.h). */
#include "checkpoint.h"

#include <ctype.h>
#include <errno.h>
#include <float.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

/* The first line: "npuzzle-checkpoint 1", or 2 for a file with SPAN fields
 * (checkpoint.h), which earlier versions of npuzzle do not read (those from
 * 24bad61 wrote them as version 1); both are read. */
#define CK_MAGIC "npuzzle-checkpoint "
#define CK_VERSION_MAX 2
/* every board size there is: no input can have more */
#define CK_MAX_SIZES ((NP_MAX_SIDE - NP_MIN_SIDE + 1) * (NP_MAX_SIDE - NP_MIN_SIDE + 1))

enum { CK_NONE, CK_RUNNING, CK_DONE };

typedef struct ck_board {
    int state;
    np_result *res;        /* CK_DONE */
    np_iteration it;       /* CK_RUNNING: the iteration and the counts before it */
    double seconds_before; /* its search time in earlier runs */
    double started;        /* when this run started it (0: not yet) */
    np_piece *pieces;      /* the iteration's finished pieces (moves malloc'd) */
    size_t npieces, cap;
    size_t done;         /* the pieces they stand for (pieces_done) */
    uint64_t generated;  /* their nodes (pieces_generated) */
    np_iteration resume; /* handed to the search */
    np_journal journal;
    struct ck_jctx {
        checkpoint *c;
        size_t i;
    } jctx;
} ck_board;

struct checkpoint {
    char *path, *tmp, *lockpath, *options;
    int lockfd; /* FILE.lock, flock'd while this run has the file; -1: none */
    uint64_t boards_digest;
    size_t n;
    ck_board *b;
    struct {
        int rows, cols;
        uint64_t digest;
    } tables[CK_MAX_SIZES];
    int ntables;
    size_t resumed;
    pthread_mutex_t lock;
    void (*observe)(void *ctx, const np_iteration *next);
    void (*observe_piece)(void *ctx, const np_iteration *it, size_t done, uint64_t nodes,
                          const np_piece *p);
    void (*observe_running)(void *ctx, const np_iteration *it, size_t done, uint64_t nodes,
                            uint64_t generated);
    double observe_every; /* seconds between running calls (np_journal.running_every) */
    void *observe_ctx;
    double every, last_write;
    double last_try;        /* when a write while searching was last tried */
    bool failing;           /* the last write while searching failed (reported once) */
    int error;              /* the state is incomplete (out of memory): no more writes */
    bool read_only;         /* a finished file where no lock can be made: read, never written */
    const np_board *boards; /* the run's boards, while the file is read (open_at) */
};

/* ---- digests --------------------------------------------------------------- */

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
    const unsigned char *s = p;
    for (size_t i = 0; i < n; i++)
        h = (h ^ s[i]) * 0x100000001b3ULL;
    return h;
}
#define FNV_START 0xcbf29ce484222325ULL

static uint64_t boards_digest(const np_board *boards, size_t n)
{
    uint64_t h = FNV_START;
    for (size_t i = 0; i < n; i++) {
        uint8_t dims[2] = {(uint8_t)boards[i].rows, (uint8_t)boards[i].cols};
        h = fnv(h, dims, 2);
        h = fnv(h, boards[i].tiles, (size_t)(boards[i].rows * boards[i].cols));
    }
    return h;
}

/* ---- pieces ---------------------------------------------------------------- */

static void clear_pieces(ck_board *b)
{
    for (size_t k = 0; k < b->npieces; k++)
        free((char *)b->pieces[k].moves);
    b->npieces = 0;
    b->done = 0;
    b->generated = 0;
}

/* How many of board b's current iteration's pieces are finished: those kept,
 * and those the carried-over ones stand for (np_piece.span). Kept as they
 * come (add_piece), since it is asked at every finished piece: a list cut
 * again at a stop can hold tens of thousands. */
static size_t pieces_done(const ck_board *b)
{
    return b->done;
}

/* The nodes generated in board b's finished pieces of its current iteration. */
static uint64_t pieces_generated(const ck_board *b)
{
    return b->generated;
}

/* @return 0, or -1 out of memory. */
static int add_piece(ck_board *b, const np_piece *p)
{
    if (b->npieces == b->cap) {
        size_t ncap = b->cap ? 2 * b->cap : 64;
        np_piece *v = realloc(b->pieces, ncap * sizeof *v);
        if (!v)
            return -1;
        b->pieces = v;
        b->cap = ncap;
    }
    np_piece q = *p;
    q.moves = NULL;
    if (p->length >= 0 && !(q.moves = strdup(p->moves)))
        return -1;
    b->pieces[b->npieces++] = q;
    b->done += np_piece_count(&q);
    b->generated += q.generated;
    return 0;
}

/* ---- writing --------------------------------------------------------------- */

static void put_moves(FILE *f, const char *m)
{
    fputs(m && *m ? m : "-", f);
}

/* The file's text, end line included, in a malloc'd buffer. */
static char *render(checkpoint *c, size_t *len)
{
    char *buf = NULL;
    FILE *f = open_memstream(&buf, len);
    if (!f)
        return NULL;
    double now = np_clock();
    int version = 1;
    for (size_t i = 0; i < c->n; i++)
        for (size_t k = 0; c->b[i].state == CK_RUNNING && k < c->b[i].npieces; k++)
            if (c->b[i].pieces[k].span)
                version = 2;
    fprintf(f, "%s%d\noptions %s\nboards %zu %016llx\n", CK_MAGIC, version, c->options, c->n,
            (unsigned long long)c->boards_digest);
    for (int t = 0; t < c->ntables; t++)
        fprintf(f, "tables %dx%d %016llx\n", c->tables[t].rows, c->tables[t].cols,
                (unsigned long long)c->tables[t].digest);
    for (size_t i = 0; i < c->n; i++) {
        const ck_board *b = &c->b[i];
        if (b->state == CK_DONE) {
            const np_result *r = b->res;
            fprintf(f, "done %zu %d %d ", i, (int)r->status, r->length);
            put_moves(f, r->moves);
            fprintf(f, " %llu %llu %llu %.6f %d %d\n", (unsigned long long)r->expanded,
                    (unsigned long long)r->generated, (unsigned long long)r->extra, r->seconds,
                    r->h0, r->bound);
        } else if (b->state == CK_RUNNING) {
            const np_iteration *it = &b->it;
            double sec = b->seconds_before + (b->started > 0 ? now - b->started : 0);
            fprintf(f, "iter %zu %d %d %zu %llu %llu %llu %.6f\n", i, it->bound, it->depth,
                    it->npieces, (unsigned long long)it->expanded,
                    (unsigned long long)it->generated, (unsigned long long)it->extra, sec);
            for (size_t k = 0; k < b->npieces; k++) {
                const np_piece *p = &b->pieces[k];
                fprintf(f, "piece %zu %zu %llu %llu %d %d ", i, p->index,
                        (unsigned long long)p->expanded, (unsigned long long)p->generated,
                        p->next_bound == INT_MAX ? -1 : p->next_bound, p->length);
                put_moves(f, p->moves);
                if (p->span) /* carried over from a list split again (np_piece.span) */
                    fprintf(f, " %zu", p->span);
                fputc('\n', f);
            }
        }
    }
    if (fclose(f) != 0) {
        free(buf);
        return NULL;
    }
    uint64_t h = fnv(FNV_START, buf, *len);
    char end[64];
    int el = snprintf(end, sizeof end, "end %016llx\n", (unsigned long long)h);
    char *all = realloc(buf, *len + (size_t)el + 1);
    if (!all) {
        free(buf);
        return NULL;
    }
    memcpy(all + *len, end, (size_t)el + 1);
    *len += (size_t)el;
    return all;
}

/* fsync the directory holding `path`. @return 0, or -1 with errno set. */
static int sync_dir(const char *path)
{
    const char *slash = strrchr(path, '/');
    char dir[4096];
    if (!slash)
        snprintf(dir, sizeof dir, ".");
    else if (slash == path)
        snprintf(dir, sizeof dir, "/");
    else if ((size_t)(slash - path) < sizeof dir)
        snprintf(dir, sizeof dir, "%.*s", (int)(slash - path), path);
    else
        return errno = ENAMETOOLONG, -1;
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    int rc = fsync(fd);
    /* some file systems cannot sync a directory: nothing more to do there */
    if (rc != 0 && (errno == EINVAL || errno == EROFS))
        rc = 0;
    int err = errno;
    close(fd);
    errno = err;
    return rc;
}

/* Write the file under its temporary name, flush it to the disk, rename it
 * over the old one; a failure is reported unless `quiet`. Called with the
 * lock held. */
static int save_locked(checkpoint *c, bool quiet)
{
    if (c->read_only) /* every answer in it already: nothing to write */
        return EXIT_OK;
    size_t len;
    char *text = render(c, &len);
    if (!text) {
        if (!quiet)
            fprintf(stderr, "npuzzle solve: out of memory writing checkpoint %s\n", c->path);
        return EXIT_PDB;
    }
    /* A fresh file, never one that is there: whatever stands at the name (a
     * killed run's leftover, or a symbolic link planted to have this run
     * write through it) is removed first, and O_EXCL with O_NOFOLLOW refuses
     * anything that appears between the two calls. */
    if (unlink(c->tmp) != 0 && errno != ENOENT) {
        int e = errno;
        free(text);
        if (!quiet)
            fprintf(stderr, "npuzzle solve: cannot remove the old %s: %s\n", c->tmp, strerror(e));
        return EXIT_PDB;
    }
    int fd = open(c->tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
    const char *what = "create";
    bool ok = fd >= 0;
    for (size_t off = 0; ok && off < len;) {
        ssize_t w = write(fd, text + off, len - off);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            if (w == 0)
                errno = EIO; /* nothing written, and no error said why */
            what = "write";
            ok = false;
            break;
        }
        off += (size_t)w;
    }
    if (ok && fsync(fd) != 0) {
        what = "sync";
        ok = false;
    }
    if (fd >= 0 && close(fd) != 0 && ok) {
        what = "close";
        ok = false;
    }
    const char *name = c->tmp; /* the file the failed step was on */
    if (ok && rename(c->tmp, c->path) != 0) {
        what = "rename";
        name = c->path;
        ok = false;
    }
    /* and the rename itself to the disk, with the directory */
    if (ok && sync_dir(c->path) != 0) {
        what = "sync the directory of";
        name = c->path;
        ok = false;
    }
    int err = errno;
    free(text);
    if (!ok) {
        if (fd >= 0)
            unlink(c->tmp);
        if (!quiet)
            fprintf(stderr, "npuzzle solve: cannot %s checkpoint %s: %s\n", what, name,
                    strerror(err));
        return EXIT_PDB;
    }
    c->last_write = np_clock();
    return EXIT_OK;
}

/* Write when `every` seconds have passed since the last write. A write that
 * fails (a full disk, a name taken) is tried again every `every` seconds, and
 * at least a second apart, while the search goes on: a passing problem costs
 * only the pieces finished until it passes. Lock held. */
static void save_due(checkpoint *c)
{
    const double now = np_clock();
    const double retry = c->every > 1 ? c->every : 1;
    if (c->error != EXIT_OK ||
        (c->failing ? now - c->last_try < retry : now - c->last_write < c->every))
        return;
    c->last_try = now;
    const bool was = c->failing;
    c->failing = save_locked(c, was) != EXIT_OK;
    if (c->failing && !was)
        fprintf(stderr, "npuzzle solve: checkpoint %s not written; tried again every %g s\n",
                c->path, retry);
    else if (was && !c->failing)
        fprintf(stderr, "npuzzle solve: checkpoint %s written again\n", c->path);
}

int checkpoint_save(checkpoint *c)
{
    pthread_mutex_lock(&c->lock);
    int rc = save_locked(c, false);
    if (rc == EXIT_OK)
        c->failing = false;
    pthread_mutex_unlock(&c->lock);
    return rc;
}

int checkpoint_error(const checkpoint *c)
{
    return c->error;
}

/* ---- the search's journal ------------------------------------------------------ */

/* A piece of board i finished: a new iteration replaces the old one's pieces. */
static void on_piece(void *ctx, const np_iteration *it, const np_piece *p)
{
    struct ck_jctx *j = ctx;
    checkpoint *c = j->c;
    pthread_mutex_lock(&c->lock);
    ck_board *b = &c->b[j->i];
    if (b->state != CK_RUNNING || b->it.bound != it->bound || b->it.depth != it->depth ||
        b->it.npieces != it->npieces) {
        clear_pieces(b);
        b->it = *it;
        b->state = CK_RUNNING;
    }
    if (add_piece(b, p) != 0 && c->error == EXIT_OK) {
        fprintf(stderr, "npuzzle solve: out of memory keeping checkpoint %s\n", c->path);
        c->error = EXIT_PDB;
    }
    /* Not after a piece carried over to a list cut again: they come one after
     * the other before any is searched, and a file written among them would
     * hold a few, the old list's other finished pieces lost at a kill; the
     * file keeps the old list until a piece of the new one is searched. */
    if (!p->span)
        save_due(c);
    if (c->observe_piece)
        c->observe_piece(c->observe_ctx, &b->it, pieces_done(b), pieces_generated(b), p);
    pthread_mutex_unlock(&c->lock);
}

static void on_iteration(void *ctx, const np_iteration *next)
{
    struct ck_jctx *j = ctx;
    checkpoint *c = j->c;
    pthread_mutex_lock(&c->lock);
    ck_board *b = &c->b[j->i];
    clear_pieces(b);
    b->it = *next;
    b->it.nfinished = 0;
    b->it.finished = NULL;
    b->state = CK_RUNNING;
    /* A stopped iteration's list cut again (depth set; recut_at_stop): its
     * carried pieces follow, and the run's last write keeps them all; not a
     * new iteration to report. */
    if (next->depth == 0) {
        save_due(c);
        if (c->observe)
            c->observe(c->observe_ctx, next);
    }
    pthread_mutex_unlock(&c->lock);
}

/* The search's running count of iteration `it` (np_journal.running): the
 * observer is also told the board's finished pieces of it, if any yet. */
static void on_running(void *ctx, const np_iteration *it, uint64_t generated)
{
    struct ck_jctx *j = ctx;
    checkpoint *c = j->c;
    pthread_mutex_lock(&c->lock);
    const ck_board *b = &c->b[j->i];
    const bool same = b->state == CK_RUNNING && b->it.bound == it->bound &&
        b->it.depth == it->depth && b->it.npieces == it->npieces;
    c->observe_running(c->observe_ctx, it, same ? pieces_done(b) : 0,
                       same ? pieces_generated(b) : 0, generated);
    pthread_mutex_unlock(&c->lock);
}

void checkpoint_observe(checkpoint *c, void (*fn)(void *ctx, const np_iteration *next),
                        void (*piece)(void *ctx, const np_iteration *it, size_t done,
                                      uint64_t nodes, const np_piece *p),
                        void (*running)(void *ctx, const np_iteration *it, size_t done,
                                        uint64_t nodes, uint64_t generated),
                        double running_every, void *ctx)
{
    c->observe = fn;
    c->observe_piece = piece;
    c->observe_running = running;
    c->observe_every = running_every;
    c->observe_ctx = ctx;
}

void checkpoint_prepare(checkpoint *c, size_t i, np_search_opts *opts)
{
    pthread_mutex_lock(&c->lock);
    ck_board *b = &c->b[i];
    b->started = np_clock();
    b->jctx.c = c;
    b->jctx.i = i;
    b->journal = (np_journal){.piece = on_piece,
                              .iteration = on_iteration,
                              .running = c->observe_running ? on_running : NULL,
                              .running_every = c->observe_every,
                              .recut_at_stop = true,
                              .ctx = &b->jctx};
    opts->journal = &b->journal;
    if (b->state == CK_RUNNING) {
        b->resume = b->it;
        b->resume.nfinished = b->npieces;
        b->resume.finished = b->pieces;
        opts->resume = &b->resume;
        /* --timeout counts the board's seconds in earlier runs, as
         * --max-nodes counts its nodes: a run stopped and resumed gets no
         * more time than one that was not. Spent already: the least time
         * that is still a limit (0 would be none), so it stops at once. */
        if (opts->timeout > 0) {
            const double left = opts->timeout - b->seconds_before;
            opts->timeout = left > 0 ? left : DBL_MIN;
        }
    }
    pthread_mutex_unlock(&c->lock);
}

uint64_t checkpoint_resumed_nodes(checkpoint *c, size_t i)
{
    pthread_mutex_lock(&c->lock);
    const ck_board *b = &c->b[i];
    const uint64_t n = b->state == CK_RUNNING ? b->it.generated + pieces_generated(b) : 0;
    pthread_mutex_unlock(&c->lock);
    return n;
}

void checkpoint_finish(checkpoint *c, size_t i, np_result *r)
{
    pthread_mutex_lock(&c->lock);
    ck_board *b = &c->b[i];
    r->seconds += b->seconds_before;
    if (r->status == NP_STATUS_ERROR) {
        /* not an answer: the board is searched again when the run is; its
         * time ends here (the file kept counting it to the run's end) */
        if (b->started > 0)
            b->seconds_before += np_clock() - b->started;
        b->started = 0;
        if (r->error == NP_EINVAL && b->state == CK_RUNNING) {
            /* a state the search refused (another version's): dropped, so
             * that the next run searches the board from its start */
            clear_pieces(b);
            b->state = CK_NONE;
            b->seconds_before = 0;
            if (c->resumed > 0)
                c->resumed--; /* searched again from its start: not resumed */
        }
        pthread_mutex_unlock(&c->lock);
        return;
    }
    np_result *copy = malloc(sizeof *copy);
    if (copy) {
        *copy = *r;
        clear_pieces(b);
        free(b->res);
        b->res = copy;
        b->state = CK_DONE;
        save_due(c);
    } else if (c->error == EXIT_OK) {
        fprintf(stderr, "npuzzle solve: out of memory keeping checkpoint %s\n", c->path);
        c->error = EXIT_PDB;
    }
    pthread_mutex_unlock(&c->lock);
}

bool checkpoint_read_only(const checkpoint *c)
{
    return c->read_only;
}

size_t checkpoint_resumed(const checkpoint *c)
{
    return c->resumed;
}

const np_result *checkpoint_done(const checkpoint *c, size_t i)
{
    return c->b[i].state == CK_DONE ? c->b[i].res : NULL;
}

int checkpoint_tables(checkpoint *c, int rows, int cols, uint64_t digest)
{
    for (int t = 0; t < c->ntables; t++)
        if (c->tables[t].rows == rows && c->tables[t].cols == cols) {
            if (c->tables[t].digest == digest)
                return EXIT_OK;
            fprintf(stderr,
                    "npuzzle solve: checkpoint %s was made with other %dx%d tables (digest "
                    "%016llx, these %016llx); delete it to start over, or use those tables\n",
                    c->path, rows, cols, (unsigned long long)c->tables[t].digest,
                    (unsigned long long)digest);
            return EXIT_USAGE;
        }
    if (c->ntables == CK_MAX_SIZES) {
        fprintf(stderr, "npuzzle solve: checkpoint %s: more than %d board sizes\n", c->path,
                CK_MAX_SIZES);
        return EXIT_USAGE;
    }
    c->tables[c->ntables].rows = rows;
    c->tables[c->ntables].cols = cols;
    c->tables[c->ntables].digest = digest;
    c->ntables++;
    return EXIT_OK;
}

/* ---- reading ----------------------------------------------------------------- */

/* The next space-separated word of *s (NUL-terminated in place), or NULL. */
static char *word(char **s)
{
    char *p = *s;
    while (*p == ' ')
        p++;
    if (!*p)
        return NULL;
    char *start = p;
    while (*p && *p != ' ')
        p++;
    if (*p)
        *p++ = 0;
    *s = p;
    return start;
}

/* The numbers as npuzzle writes them: digits (a '-' before an int's), not
 * the signs, spaces or hexadecimal forms that strto* also take. */
static bool num_u64(char **s, uint64_t *out)
{
    char *w = word(s), *end;
    if (!w || !isdigit((unsigned char)*w))
        return false;
    errno = 0;
    unsigned long long v = strtoull(w, &end, 10);
    if (*end || errno)
        return false;
    *out = v;
    return true;
}

static bool num_int(char **s, int *out)
{
    char *w = word(s), *end;
    if (!w || !isdigit((unsigned char)w[*w == '-']))
        return false;
    errno = 0;
    long v = strtol(w, &end, 10);
    if (*end || errno || v < INT_MIN || v > INT_MAX)
        return false;
    *out = (int)v;
    return true;
}

static bool num_size(char **s, size_t *out)
{
    uint64_t v;
    if (!num_u64(s, &v) || v > SIZE_MAX)
        return false;
    *out = (size_t)v;
    return true;
}

static bool num_double(char **s, double *out)
{
    char *w = word(s), *end;
    if (!w || !isdigit((unsigned char)*w) || strspn(w, "0123456789.e+-") != strlen(w))
        return false;
    errno = 0;
    *out = strtod(w, &end);
    return !*end && !errno && *out >= 0;
}

static bool hex64(char **s, uint64_t *out)
{
    char *w = word(s), *end;
    if (!w || strlen(w) != 16 || strspn(w, "0123456789abcdef") != 16)
        return false;
    errno = 0;
    *out = strtoull(w, &end, 16);
    return !*end && !errno;
}

/* Moves: '-' for none, else U D L R letters; *out points into the line. */
static bool moves_field(char **s, const char **out, int length)
{
    char *w = word(s);
    if (!w)
        return false;
    if (!strcmp(w, "-")) {
        *out = "";
        return length <= 0;
    }
    if ((int)strlen(w) != length || strspn(w, "UDLR") != strlen(w))
        return false;
    *out = w;
    return true;
}

static const char *parse_fields(checkpoint *c, char **sp);

/* One line after the header lines; `s` is the line without its newline.
 * @return NULL, or the name of the bad field. */
static const char *parse_line(checkpoint *c, char *s)
{
    const char *bad = parse_fields(c, &s);
    return bad ? bad : word(&s) ? "line end (text after the last field)" : NULL;
}

/* The fields of one line, *sp moved past them. @return as parse_line. */
static const char *parse_fields(checkpoint *c, char **sp)
{
    char *s = *sp;
    char *kind = word(&s);
    size_t i;
    if (!kind)
        return "line kind";
    if (!strcmp(kind, "tables")) {
        char *size = word(&s);
        int rows, cols;
        uint64_t d;
        if (!size || !cli_parse_size(size, &rows, &cols))
            return "tables size";
        if (!hex64(&s, &d))
            return "tables digest";
        for (int t = 0; t < c->ntables; t++)
            if (c->tables[t].rows == rows && c->tables[t].cols == cols)
                return "tables size (given twice)";
        if (c->ntables == CK_MAX_SIZES)
            return "tables (too many sizes)";
        c->tables[c->ntables].rows = rows;
        c->tables[c->ntables].cols = cols;
        c->tables[c->ntables].digest = d;
        c->ntables++;
        *sp = s;
        return NULL;
    }
    if (strcmp(kind, "done") != 0 && strcmp(kind, "iter") != 0 && strcmp(kind, "piece") != 0)
        return "line kind";
    if (!num_size(&s, &i) || i >= c->n)
        return "board index";
    ck_board *b = &c->b[i];
    if (!strcmp(kind, "done")) {
        np_result *r = calloc(1, sizeof *r);
        if (!r)
            return "done (out of memory)";
        int status;
        const char *moves;
        const char *bad = NULL;
        if (!num_int(&s, &status) || status < NP_STATUS_SOLVED || status > NP_STATUS_LIMIT)
            bad = "status";
        else if (!num_int(&s, &r->length) || r->length < -1 || r->length > NP_MAX_PATH)
            bad = "length";
        else if (!moves_field(&s, &moves, r->length))
            bad = "moves";
        else if (!num_u64(&s, &r->expanded))
            bad = "expanded";
        else if (!num_u64(&s, &r->generated))
            bad = "generated";
        else if (!num_u64(&s, &r->extra))
            bad = "extra";
        else if (!num_double(&s, &r->seconds))
            bad = "seconds";
        else if (!num_int(&s, &r->h0))
            bad = "h0";
        else if (!num_int(&s, &r->bound))
            bad = "bound";
        if (bad || b->state != CK_NONE) {
            free(r);
            return bad ? bad : "board index (given twice)";
        }
        r->status = (np_status)status;
        snprintf(r->moves, sizeof r->moves, "%s", moves);
        b->res = r;
        b->state = CK_DONE;
        *sp = s;
        return NULL;
    }
    if (!strcmp(kind, "iter")) {
        np_iteration *it = &b->it;
        if (b->state != CK_NONE)
            return "board index (given twice)";
        if (!num_int(&s, &it->bound))
            return "bound";
        if (!num_int(&s, &it->depth) || it->depth < 0)
            return "depth";
        if (!num_size(&s, &it->npieces))
            return "pieces";
        if (!num_u64(&s, &it->expanded))
            return "expanded";
        if (!num_u64(&s, &it->generated))
            return "generated";
        if (!num_u64(&s, &it->extra))
            return "extra";
        if (!num_double(&s, &b->seconds_before))
            return "seconds";
        b->state = CK_RUNNING;
        *sp = s;
        return NULL;
    }
    if (!strcmp(kind, "piece")) {
        np_piece p;
        const char *moves;
        if (b->state != CK_RUNNING)
            return "board index (no iter line before)";
        if (!num_size(&s, &p.index) || p.index >= b->it.npieces)
            return "piece index";
        if (!num_u64(&s, &p.expanded))
            return "expanded";
        if (!num_u64(&s, &p.generated))
            return "generated";
        if (!num_int(&s, &p.next_bound))
            return "next bound";
        if (p.next_bound < 0)
            p.next_bound = INT_MAX;
        if (!num_int(&s, &p.length) || p.length < -1 || p.length > NP_MAX_PATH)
            return "length";
        if (!moves_field(&s, &moves, p.length))
            return "moves";
        p.moves = moves;
        p.span = 0; /* written only for a piece carried over (np_piece.span) */
        if (s[strspn(s, " ")] &&
            (!num_size(&s, &p.span) || p.span == 0 || p.length >= 0 ||
             p.span > b->it.npieces - p.index))
            return "span";
        if (add_piece(b, &p) != 0)
            return "piece (out of memory)";
        *sp = s;
        return NULL;
    }
    return "line kind";
}

/* The first line, `line` (with its newline). @return EXIT_OK or EXIT_PDB,
 * reported: not a checkpoint, or one of a later version than this reads. */
static int check_magic(const checkpoint *c, const char *line)
{
    const size_t n = strlen(CK_MAGIC);
    const char *v = line + n;
    const size_t digits = strspn(v, "0123456789");
    /* the version as the writer spells it: digits, no leading zero */
    if (strncmp(line, CK_MAGIC, n) != 0 || digits == 0 || digits > 9 || v[0] == '0' ||
        strcmp(v + digits, "\n") != 0) {
        fprintf(stderr, "npuzzle solve: %s:1: not an npuzzle checkpoint (no '%sN' line)\n", c->path,
                CK_MAGIC);
        return EXIT_PDB;
    }
    const long version = strtol(v, NULL, 10);
    if (version > CK_VERSION_MAX) {
        fprintf(stderr,
                "npuzzle solve: %s:1: checkpoint version %ld, which this npuzzle does not read "
                "(versions 1 to %d); resume it with the npuzzle that wrote it\n",
                c->path, version, CK_VERSION_MAX);
        return EXIT_PDB;
    }
    return EXIT_OK;
}

/* The whole file f before any of it is trusted: its first line, its end line
 * and the digest there of every line before it. Damage anywhere, the header
 * included, is told as damage (exit 3), not as a file made for other boards
 * or options. @return EXIT_OK or EXIT_PDB, reported. */
static int check_file(const checkpoint *c, FILE *f)
{
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    long lines = 0; /* whole lines read */
    uint64_t h = FNV_START;
    int rc = EXIT_OK;
    bool ended = false;
    while (rc == EXIT_OK && (len = getline(&line, &cap, f)) > 0) {
        if (line[len - 1] != '\n')
            break; /* a last line cut short: truncated */
        lines++;
        if (lines == 1) {
            rc = check_magic(c, line);
            h = fnv(h, line, (size_t)len);
        } else if (!strncmp(line, "end ", 4)) {
            char *s = line + 4;
            uint64_t d;
            line[len - 1] = 0;
            if (lines <= 3) {
                fprintf(stderr,
                        "npuzzle solve: checkpoint %s:%ld: damaged (an end line before the "
                        "header's three lines); delete it to start over\n",
                        c->path, lines);
                rc = EXIT_PDB;
            } else if (!hex64(&s, &d) || d != h || word(&s)) {
                fprintf(stderr,
                        "npuzzle solve: checkpoint %s:%ld: damaged (its digest does not match "
                        "its contents); delete it to start over\n",
                        c->path, lines);
                rc = EXIT_PDB;
            }
            ended = true;
            break;
        } else {
            h = fnv(h, line, (size_t)len);
        }
    }
    if (rc == EXIT_OK && ferror(f)) {
        fprintf(stderr, "npuzzle solve: cannot read checkpoint %s: %s\n", c->path, strerror(errno));
        rc = EXIT_PDB;
    } else if (rc == EXIT_OK && ended && getc(f) != EOF) {
        fprintf(stderr,
                "npuzzle solve: checkpoint %s:%ld: damaged (text after its end line); delete it "
                "to start over\n",
                c->path, lines + 1);
        rc = EXIT_PDB;
    } else if (rc == EXIT_OK && !ended) {
        fprintf(stderr,
                "npuzzle solve: checkpoint %s is truncated (no end line after line %ld); "
                "delete it to start over\n",
                c->path, lines);
        rc = EXIT_PDB;
    }
    free(line);
    return rc;
}

/* Whether every board holds its answer, and (no_limit) none of them a limit. */
static bool all_answered(const checkpoint *c, bool no_limit)
{
    for (size_t i = 0; i < c->n; i++)
        if (c->b[i].state != CK_DONE || (no_limit && c->b[i].res->status == NP_STATUS_LIMIT))
            return false;
    return true;
}

/* The length of options s without its end " jobs=N" (digits to the end of
 * the line: the threads of A* boards solved side by side, solve.c's
 * options_text), or all of it where it has none. */
static size_t before_jobs(const char *s)
{
    const char *j = strstr(s, " jobs=");
    if (!j)
        return strlen(s);
    const char *d = j + 6;
    if (!*d)
        return strlen(s);
    for (const char *q = d; *q; q++)
        if (*q < '0' || *q > '9')
            return strlen(s);
    return (size_t)(j - s);
}

/* The threads options s records (its " jobs=N" end; 1 without one). */
static int jobs_of(const char *s)
{
    const size_t l = before_jobs(s);
    return s[l] ? atoi(s + l + 6) : 1;
}

/* Whether as many A* boards of each size share the memory at ja threads as
 * at jb (cli_astar_side): the boards then get the same memory either way. */
static bool same_shares(const checkpoint *c, int ja, int jb)
{
    struct board_size {
        int rows, cols;
        size_t count;
    } size[64];
    int nsizes = 0;
    for (size_t i = 0; i < c->n; i++) {
        int k = 0;
        while (k < nsizes &&
               (size[k].rows != c->boards[i].rows || size[k].cols != c->boards[i].cols))
            k++;
        if (k == nsizes) {
            if (nsizes == 64)
                return false; /* more sizes than told apart here: not the same */
            size[nsizes++] = (struct board_size){c->boards[i].rows, c->boards[i].cols, 0};
        }
        size[k].count++;
    }
    for (int k = 0; k < nsizes; k++) {
        if (cli_astar_side(size[k].count, ja) != cli_astar_side(size[k].count, jb))
            return false;
    }
    return true;
}

/* Whether options a and b differ only in their " jobs=N" ends. */
static bool only_jobs_differ(const char *a, const char *b)
{
    const size_t la = before_jobs(a), lb = before_jobs(b);
    return la == lb && memcmp(a, b, la) == 0;
}

/* Read the checkpoint file f, whole and undamaged (check_file). @return
 * EXIT_OK, EXIT_USAGE (made for other boards or options) or EXIT_PDB (a bad
 * field), reported. */
static int read_file(checkpoint *c, FILE *f)
{
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    long lineno = 0;
    int rc = EXIT_OK;
    /* the file's options where they differ from the run's in the threads
     * alone: that matters to A* boards left (they share the memory as the run
     * that made it did) where the threads put another number of them side
     * by side, not to a finished file */
    char *jobs_only = NULL;
    while (rc == EXIT_OK && (len = getline(&line, &cap, f)) > 0 && strncmp(line, "end ", 4) != 0) {
        lineno++;
        line[len - 1] = 0;
        if (lineno == 1)
            continue; /* the magic line, checked */
        if (lineno == 2) {
            if (strncmp(line, "options ", 8) != 0) {
                rc = EXIT_PDB;
                fprintf(stderr, "npuzzle solve: checkpoint %s:2: bad field options\n", c->path);
            } else if (strcmp(line + 8, c->options) != 0 &&
                       only_jobs_differ(line + 8, c->options)) {
                if (!(jobs_only = strdup(line + 8))) {
                    fprintf(stderr, "npuzzle solve: out of memory for checkpoint %s\n", c->path);
                    rc = EXIT_PDB;
                }
            } else if (strcmp(line + 8, c->options) != 0) {
                fprintf(stderr,
                        "npuzzle solve: checkpoint %s was made with other options:\n"
                        "  it has: %s\n  now:    %s\n"
                        "  run with its options, or delete it to start over\n",
                        c->path, line + 8, c->options);
                rc = EXIT_USAGE;
            }
        } else if (lineno == 3) {
            char *s = line;
            char *w = word(&s);
            size_t n;
            uint64_t d;
            if (!w || strcmp(w, "boards") != 0 || !num_size(&s, &n) || !hex64(&s, &d) || word(&s)) {
                fprintf(stderr, "npuzzle solve: checkpoint %s:3: bad field boards\n", c->path);
                rc = EXIT_PDB;
            } else if (n != c->n || d != c->boards_digest) {
                fprintf(stderr,
                        "npuzzle solve: checkpoint %s was made for other boards (%zu boards, "
                        "digest %016llx; these are %zu, %016llx); delete it to start over\n",
                        c->path, n, (unsigned long long)d, c->n,
                        (unsigned long long)c->boards_digest);
                rc = EXIT_USAGE;
            }
        } else {
            const char *bad = parse_line(c, line);
            if (bad) {
                fprintf(stderr, "npuzzle solve: checkpoint %s:%ld: bad field %s\n", c->path, lineno,
                        bad);
                rc = EXIT_PDB;
            }
        }
    }
    if (rc == EXIT_OK && ferror(f)) {
        fprintf(stderr, "npuzzle solve: cannot read checkpoint %s: %s\n", c->path, strerror(errno));
        rc = EXIT_PDB;
    }
    if (rc == EXIT_OK && jobs_only) {
        /* every board answered, and no answer a limit: an A* board solved
         * (or unsolvable) has the same answer whatever its share of the
         * memory; a limit (memory, --timeout, --max-nodes: not told apart)
         * might not */
        if (same_shares(c, jobs_of(jobs_only), jobs_of(c->options))) {
            /* every board's share of the memory the same (one board, say):
             * the run goes on under this run's options */
        } else if (all_answered(c, true)) { /* kept as it is, answers and options */
            free(c->options);
            c->options = jobs_only;
            jobs_only = NULL;
        } else {
            fprintf(stderr,
                    "npuzzle solve: checkpoint %s was made with other options:\n"
                    "  it has: %s\n  now:    %s\n"
                    "  its A* boards left, or stopped at a limit, share the memory as that run's "
                    "threads did: run with its -j, or delete it to start over\n",
                    c->path, jobs_only, c->options);
            rc = EXIT_USAGE;
        }
    }
    free(jobs_only);
    free(line);
    return rc;
}

/* ---- opening and closing ------------------------------------------------------ */

/* Take FILE.lock (created when missing) for this run: two runs on one
 * checkpoint would overwrite each other's file. The lock goes with the
 * process, so a killed run leaves none behind; the file itself is removed at
 * the close, and a run that got the lock on a file removed meanwhile takes the
 * new one. @return EXIT_OK or EXIT_PDB, reported; CK_NO_LOCK, not reported,
 * where the lock cannot be made for want of permission (a read-only place:
 * errno says which). */
#define CK_NO_LOCK (-1)
static int take_lock(checkpoint *c)
{
    for (int tries = 0; tries < 16; tries++) {
        int fd = open(c->lockpath, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0644);
        if (fd < 0 && (errno == EACCES || errno == EROFS || errno == EPERM))
            return CK_NO_LOCK;
        if (fd < 0) {
            fprintf(stderr, "npuzzle solve: cannot create checkpoint lock %s: %s\n", c->lockpath,
                    strerror(errno));
            return EXIT_PDB;
        }
        if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
            int err = errno;
            close(fd);
            if (err == EWOULDBLOCK)
                fprintf(stderr,
                        "npuzzle solve: checkpoint %s is in use by another run (it holds %s); "
                        "wait for that run to end, or give this one another file\n",
                        c->path, c->lockpath);
            else
                fprintf(stderr, "npuzzle solve: cannot lock %s: %s\n", c->lockpath, strerror(err));
            return EXIT_PDB;
        }
        struct stat held, named;
        if (fstat(fd, &held) == 0 && stat(c->lockpath, &named) == 0 &&
            held.st_dev == named.st_dev && held.st_ino == named.st_ino) {
            c->lockfd = fd;
            return EXIT_OK;
        }
        close(fd); /* removed by the run that held it: take the new one */
    }
    fprintf(stderr, "npuzzle solve: cannot lock %s: it keeps being replaced\n", c->lockpath);
    return EXIT_PDB;
}

/* The file a checkpoint at `path` is: path itself, or where the symbolic
 * links from path lead (each relative target read from its link's
 * directory; a chain may end at a file yet to be), so that the rename
 * writes the file the user named and the lock is the one every name for it
 * takes. A loop or too long a chain is left to open() to refuse. Malloc'd;
 * NULL out of memory. */
static char *checkpoint_file(const char *path)
{
    char *cur = strdup(path);
    for (int hops = 0; cur && hops < 40; hops++) {
        struct stat st;
        if (lstat(cur, &st) != 0 || !S_ISLNK(st.st_mode))
            return cur;
        char target[PATH_MAX];
        const ssize_t len = readlink(cur, target, sizeof target);
        if (len <= 0 || (size_t)len >= sizeof target)
            return cur;
        target[len] = 0;
        const char *slash = strrchr(cur, '/');
        char *next;
        if (target[0] == '/' || !slash) {
            next = strdup(target);
        } else {
            const int dirlen = (int)(slash - cur);
            const size_t size = (size_t)dirlen + (size_t)len + 2;
            if ((next = malloc(size)))
                snprintf(next, size, "%.*s/%s", dirlen, cur, target);
        }
        free(cur);
        cur = next;
    }
    return cur;
}

static int open_at(checkpoint **out, const char *path, const char *options, const np_board *boards,
                   size_t n, double every)
{
    checkpoint *c = calloc(1, sizeof *c);
    if (c) {
        pthread_mutex_init(&c->lock, NULL);
        c->lockfd = -1;
    }
    if (!c || !(c->b = calloc(n ? n : 1, sizeof *c->b)) || !(c->path = strdup(path)) ||
        !(c->options = strdup(options)) || !(c->tmp = malloc(strlen(path) + 32)) ||
        !(c->lockpath = malloc(strlen(path) + 8))) {
        fprintf(stderr, "npuzzle solve: out of memory for checkpoint %s\n", path);
        checkpoint_close(c);
        return EXIT_PDB;
    }
    /* One name, not one per process: a run killed while writing leaves it,
     * and the next run's first write takes it over. */
    snprintf(c->tmp, strlen(path) + 32, "%s.tmp", c->path);
    snprintf(c->lockpath, strlen(path) + 8, "%s.lock", c->path);
    int lrc = take_lock(c);
    const int lock_errno = errno;
    if (lrc != EXIT_OK && lrc != CK_NO_LOCK) {
        checkpoint_close(c);
        return lrc;
    }
    c->n = n;
    c->every = every;
    c->boards_digest = boards_digest(boards, n);
    c->boards = boards; /* until the file is read */
    /* Only a regular file (or none) is a checkpoint: a FIFO would block the
     * read, a device such as /dev/zero feed it without end, and the run's
     * rename would replace the device. Opened without blocking, then looked
     * at, so that what is checked is what is read. */
    struct stat st;
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd >= 0 && (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))) {
        close(fd);
        fprintf(stderr, "npuzzle solve: checkpoint %s is not a regular file\n", path);
        checkpoint_close(c);
        return EXIT_PDB;
    }
    FILE *f = fd >= 0 ? fdopen(fd, "r") : NULL;
    const bool had_file = f != NULL;
    if (fd >= 0 && !f) {
        const int e = errno;
        close(fd);
        errno = e;
    }
    if (!f && errno != ENOENT) {
        fprintf(stderr, "npuzzle solve: cannot open checkpoint %s: %s\n", path, strerror(errno));
        checkpoint_close(c);
        return EXIT_PDB;
    }
    if (f) {
        int rc = check_file(c, f);
        if (rc == EXIT_OK) {
            rewind(f);
            rc = read_file(c, f);
        }
        fclose(f);
        c->boards = NULL;
        if (rc != EXIT_OK) {
            checkpoint_close(c);
            return rc;
        }
        for (size_t i = 0; i < n; i++)
            c->resumed += c->b[i].state != CK_NONE;
    }
    if (lrc == CK_NO_LOCK) {
        /* Where no lock can be made (a read-only directory or file system,
         * another user's), a finished checkpoint still gives its answers:
         * nothing is written then. One with boards left would be. */
        if (!had_file || !all_answered(c, false)) {
            fprintf(stderr,
                    "npuzzle solve: cannot create checkpoint lock %s: %s (%s, which this run "
                    "would write)\n",
                    c->lockpath, strerror(lock_errno),
                    had_file ? "the checkpoint has boards left" : "no checkpoint there yet");
            checkpoint_close(c);
            return EXIT_PDB;
        }
        c->read_only = true;
    }
    c->last_write = np_clock();
    *out = c;
    return EXIT_OK;
}

int checkpoint_open(checkpoint **out, const char *name, const char *options, const np_board *boards,
                    size_t n, double every)
{
    *out = NULL;
    char *path = checkpoint_file(name);
    if (!path) {
        fprintf(stderr, "npuzzle solve: out of memory for checkpoint %s\n", name);
        return EXIT_PDB;
    }
    const int rc = open_at(out, path, options, boards, n, every);
    free(path);
    return rc;
}

void checkpoint_close(checkpoint *c)
{
    if (!c)
        return;
    for (size_t i = 0; c->b && i < c->n; i++) {
        clear_pieces(&c->b[i]);
        free(c->b[i].pieces);
        free(c->b[i].res);
    }
    pthread_mutex_destroy(&c->lock);
    if (c->lockfd >= 0) {
        unlink(c->lockpath); /* while still held: see take_lock */
        close(c->lockfd);
    }
    free(c->b);
    free(c->path);
    free(c->tmp);
    free(c->lockpath);
    free(c->options);
    free(c);
}
