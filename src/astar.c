/* astar.c - A* over packed states for boards of up to 16 cells. */
#include "npuzzle/astar.h"

#include <stdlib.h>
#include <string.h>

#include "npuzzle/error.h"
#include "npuzzle/heuristic.h"
#include "npuzzle/sys.h"

/* A state packs the tile of cell c into bits 4c..4c+3. No board packs to 0
 * (two cells hold different tiles), so 0 marks an empty hash slot. */
typedef uint64_t packed;

static packed pack(const np_board *b, int n)
{
    packed p = 0;
    for (int c = 0; c < n; c++)
        p |= (packed)b->tiles[c] << (4 * c);
    return p;
}

static void unpack(np_board *b, packed p, const np_geom *g)
{
    b->rows = (uint8_t)g->rows;
    b->cols = (uint8_t)g->cols;
    for (int c = 0; c < g->cells; c++) {
        b->tiles[c] = (uint8_t)(p >> (4 * c) & 15);
        if (!b->tiles[c])
            b->blank = (uint8_t)c;
    }
}

/* Closed/open membership: slot info = g << 3 | closed << 2 | dir (the blank's
 * last move, which leads back to the parent when reversed). */
typedef struct table {
    packed *keys;
    uint32_t *info;
    size_t cap, used;
} table;

static size_t slot_of(const table *t, packed k)
{
    uint64_t h = k * 0x9E3779B97F4A7C15ull;
    size_t i = (size_t)(h >> 20) & (t->cap - 1);
    while (t->keys[i] && t->keys[i] != k)
        i = (i + 1) & (t->cap - 1);
    return i;
}

static int table_grow(table *t, uint64_t *bytes, uint64_t budget)
{
    size_t ncap = t->cap ? t->cap * 2 : 1u << 10;
    uint64_t need = (uint64_t)ncap * (sizeof(packed) + sizeof(uint32_t));
    uint64_t old = (uint64_t)t->cap * (sizeof(packed) + sizeof(uint32_t));
    /* the old table stays until the new one holds its entries: both count */
    if (*bytes + need > budget)
        return NP_ELIMIT;
    table n = {calloc(ncap, sizeof(packed)), calloc(ncap, sizeof(uint32_t)), ncap, 0};
    if (!n.keys || !n.info) {
        free(n.keys);
        free(n.info);
        return NP_ELIMIT;
    }
    for (size_t i = 0; i < t->cap; i++)
        if (t->keys[i]) {
            size_t j = slot_of(&n, t->keys[i]);
            n.keys[j] = t->keys[i];
            n.info[j] = t->info[i];
            n.used++;
        }
    free(t->keys);
    free(t->info);
    *t = n;
    *bytes = *bytes - old + need;
    return NP_OK;
}

/* Open list: a binary heap ordered by f (in tenths of a move, so that weights
 * like 1.5 stay exact), ties to the deeper node. */
typedef struct open_entry {
    packed k;
    uint32_t f;
    uint32_t g;
} open_entry;

typedef struct astar {
    table closed;
    open_entry *heap;
    size_t n, cap;
    uint64_t bytes, budget;
} astar;

static int before(const open_entry *x, const open_entry *y)
{
    return x->f < y->f || (x->f == y->f && x->g > y->g);
}

static int push(astar *a, uint32_t f, uint32_t g, packed k)
{
    if (a->n == a->cap) {
        size_t ncap = a->cap ? a->cap * 2 : 1024;
        /* realloc may copy: the old block counts until it is freed */
        if (a->bytes + ncap * sizeof(open_entry) > a->budget)
            return NP_ELIMIT;
        open_entry *v = realloc(a->heap, ncap * sizeof(open_entry));
        if (!v)
            return NP_ELIMIT;
        a->bytes += (ncap - a->cap) * sizeof(open_entry);
        a->heap = v;
        a->cap = ncap;
    }
    open_entry e = {k, f, g};
    size_t i = a->n++;
    while (i > 0 && before(&e, &a->heap[(i - 1) / 2])) {
        a->heap[i] = a->heap[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    a->heap[i] = e;
    return NP_OK;
}

static int pop(astar *a, open_entry *out)
{
    if (!a->n)
        return 0;
    *out = a->heap[0];
    open_entry last = a->heap[--a->n];
    size_t i = 0;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= a->n)
            break;
        if (c + 1 < a->n && before(&a->heap[c + 1], &a->heap[c]))
            c++;
        if (!before(&a->heap[c], &last))
            break;
        a->heap[i] = a->heap[c];
        i = c;
    }
    if (a->n)
        a->heap[i] = last;
    return 1;
}

static int heur(const np_board *b, const np_geom *g, np_hkind hk)
{
    return hk == NP_H_LC ? np_h_linear_conflict(b, g) : np_board_manhattan(b, g);
}

int np_astar_solve(np_result *res, const np_board *start, const np_geom *g,
                   const np_search_opts *opts)
{
    np_search_opts defaults = {0};
    if (!opts)
        opts = &defaults;
    memset(res, 0, sizeof *res);
    res->length = -1;
    if (!np_geom_row_major(g) || !np_board_valid(start, g))
        return NP_EINVAL;
    if (g->cells > NP_ASTAR_MAX_CELLS)
        return NP_ETOOBIG;
    if (opts->heuristic != NP_H_MD && opts->heuristic != NP_H_LC)
        return NP_EUNSUPPORTED;
    if (opts->weight != 0 && !(opts->weight >= 1.0 && opts->weight <= NP_MAX_WEIGHT))
        return NP_EINVAL;
    double t0 = np_clock();
    const np_hkind hk = opts->heuristic;
    res->h0 = heur(start, g, hk);
    if (!np_board_solvable(start, g)) {
        res->status = NP_STATUS_UNSOLVABLE;
        res->seconds = np_clock() - t0;
        return NP_OK;
    }
    /* f is kept in tenths of a move so that weights like 1.5 stay exact; the
     * weight is rounded down to a tenth (a weight no larger: the length bound
     * holds). */
    const int hw = opts->weight > 1.0 ? (int)(opts->weight * 10 + 1e-6) : 10;
    uint64_t budget = opts->max_memory;
    if (!budget) {
        uint64_t avail = np_mem_available();
        budget = avail ? avail / 4 * 3 : (uint64_t)1 << 30;
    }
    astar a = {0};
    a.budget = budget;
    int rc = NP_OK;
    const int n = g->cells;
    packed goal;
    {
        np_board gb;
        np_board_goal(&gb, g);
        goal = pack(&gb, n);
    }
    packed sk = pack(start, n);
    int found = 0, limit = 0;
    if (table_grow(&a.closed, &a.bytes, budget) != NP_OK)
        limit = 1;
    if (!limit) {
        size_t i = slot_of(&a.closed, sk);
        a.closed.keys[i] = sk;
        a.closed.info[i] = 0; /* g = 0, open; its direction is never read */
        a.closed.used++;
        if (push(&a, (uint32_t)(hw * res->h0), 0, sk) != NP_OK)
            limit = 1;
    }
    open_entry e = {0, 0, 0};
    np_board b;
    int last_len = -1;
    while (!found && !limit && pop(&a, &e)) {
        const packed k = e.k;
        const int gcost = (int)e.g;
        size_t i = slot_of(&a.closed, k);
        uint32_t info = a.closed.info[i];
        if ((int)(info >> 3) != gcost || (info & 4))
            continue; /* a stale entry: reached more cheaply later, or already expanded */
        a.closed.info[i] = info | 4;
        if (k == goal) {
            found = 1;
            last_len = gcost;
            break;
        }
        if ((opts->max_nodes && res->generated >= opts->max_nodes) ||
            (opts->cancel && *opts->cancel) ||
            (opts->timeout > 0 && (res->expanded & 1023) == 0 &&
             np_clock() - t0 >= opts->timeout)) {
            break; /* a limit: reported below, as !found */
        }
        res->expanded++;
        unpack(&b, k, g);
        const int prev = gcost > 0 ? (int)(info & 3) : NP_NO_DIR;
        for (int d = 0; d < 4 && !limit; d++) {
            if (d == NP_DIR_OPPOSITE(prev))
                continue;
            /* NOLINTNEXTLINE(clang-analyzer-core.uninitialized.ArraySubscript): unpack() set it */
            int nb = g->nbr[b.blank][d];
            if (nb < 0)
                continue;
            res->generated++;
            int t = b.tiles[nb];
            packed ck = k & ~((packed)15 << (4 * nb));
            ck |= (packed)t << (4 * b.blank);
            int cg = gcost + 1;
            if (a.closed.used * 2 >= a.closed.cap &&
                table_grow(&a.closed, &a.bytes, budget) != NP_OK) {
                limit = 1;
                break;
            }
            size_t j = slot_of(&a.closed, ck);
            if (cg >= (1 << 20)) {
                limit = 1;
                break;
            }
            if (a.closed.keys[j] && (int)(a.closed.info[j] >> 3) <= cg)
                continue;
            if (!a.closed.keys[j])
                a.closed.used++;
            a.closed.keys[j] = ck;
            a.closed.info[j] = (uint32_t)cg << 3 | (uint32_t)d;
            np_board c = b;
            c.tiles[b.blank] = (uint8_t)t;
            c.tiles[nb] = 0;
            c.blank = (uint8_t)nb;
            int h = heur(&c, g, hk);
            if (push(&a, (uint32_t)(10 * cg + hw * h), (uint32_t)cg, ck) != NP_OK)
                limit = 1;
        }
    }
    /* Solved only within max_nodes, as IDA* (ida.h): the children of the
     * last node expanded under it can pass it by up to three. */
    if (found && opts->max_nodes && res->generated > opts->max_nodes)
        found = 0;
    if (found) {
        /* Walk back from the goal through the stored last moves. */
        packed cur = goal;
        int len = last_len;
        if (len > NP_MAX_PATH) {
            rc = NP_OK;
            found = 0;
        } else {
            res->moves[len] = 0;
            for (int pos = len - 1; pos >= 0; pos--) {
                size_t j = slot_of(&a.closed, cur);
                int d = a.closed.info[j] & 3;
                res->moves[pos] = np_dir_char(d);
                unpack(&b, cur, g);
                np_board_move(&b, g, NP_DIR_OPPOSITE(d));
                cur = pack(&b, n);
            }
            res->length = len;
            res->status = NP_STATUS_SOLVED;
            if (cur != sk || np_solution_check(start, g, res->moves) != NP_OK) {
                res->status = NP_STATUS_ERROR;
                res->error = NP_EINVAL;
                res->length = -1;
                res->moves[0] = 0;
            }
        }
    }
    if (!found) {
        res->status = NP_STATUS_LIMIT;
        res->error = NP_ELIMIT;
    }
    res->bound = (int)(e.f / 10);
    free(a.heap);
    free(a.closed.keys);
    free(a.closed.info);
    res->seconds = np_clock() - t0;
    return rc;
}
