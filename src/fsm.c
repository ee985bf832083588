/* fsm.c - the duplicate-pruning machines (fsm.h). */
#include "fsm.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "npuzzle/board.h"
#include "npuzzle/error.h"

/* ---- the parent machine ----------------------------------------------------- */

static const int32_t parent_next[5][4] = {
    {1, 2, 3, 4},  /* start */
    {1, 2, 3, -1}, /* after up: not down */
    {1, 2, -1, 4}, /* after left: not right */
    {1, -1, 3, 4}, /* after right: not left */
    {-1, 2, 3, 4}, /* after down: not up */
};

const np__fsm *np__fsm_parent(void)
{
    static const np__fsm parent = {.nstates = 5, .maxlen = 2, .nforbidden = 4, .next = parent_next};
    return &parent;
}

/* ---- finding the forbidden strings ---------------------------------------------- */

/* A string of up to 16 moves: 2 bits a move, the first in the highest bits
 * used, so that strings of one length compare as numbers in move order. */
typedef struct mstring {
    uint64_t h1, h2; /* the state it leaves (Zobrist over cell and tile) */
    uint32_t code;
    uint8_t len;
} mstring;

static int mstring_cmp(const void *pa, const void *pb)
{
    const mstring *a = pa, *b = pb;
    if (a->h1 != b->h1)
        return a->h1 < b->h1 ? -1 : 1;
    if (a->h2 != b->h2)
        return a->h2 < b->h2 ? -1 : 1;
    if (a->len != b->len)
        return a->len < b->len ? -1 : 1;
    return a->code < b->code ? -1 : a->code > b->code;
}

static uint64_t mix(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

/* The grid: (2 maxlen + 1)^2 cells, the blank starting in the middle. */
typedef struct grid {
    int side, blank;
    uint16_t tile[33 * 33];
    mstring *v;
    size_t n, cap;
    uint64_t h1, h2;
    int maxlen;
} grid;

static const int drow[4] = {-1, 0, 0, 1}, dcol[4] = {0, -1, 1, 0};

static inline uint64_t zob(int seed, int cell, int tile)
{
    return mix(((uint64_t)seed << 40) ^ ((uint64_t)cell << 20) ^ (uint64_t)tile);
}

static int enumerate(grid *g, int len, uint32_t code, int prev)
{
    if (len == g->maxlen)
        return NP_OK;
    for (int d = 0; d < 4; d++) {
        if (prev >= 0 && d == NP_DIR_OPPOSITE(prev))
            continue;
        const int b = g->blank, to = b + drow[d] * g->side + dcol[d];
        const int t = g->tile[to], bt = g->tile[b];
        /* the tile on `to` slides onto b, the blank onto `to` */
        uint64_t s1 = zob(1, b, bt) ^ zob(1, to, t) ^ zob(1, b, t) ^ zob(1, to, bt);
        uint64_t s2 = zob(2, b, bt) ^ zob(2, to, t) ^ zob(2, b, t) ^ zob(2, to, bt);
        g->h1 ^= s1;
        g->h2 ^= s2;
        g->tile[b] = (uint16_t)t;
        g->tile[to] = (uint16_t)bt;
        g->blank = to;
        uint32_t c = code << 2 | (uint32_t)d;
        if (g->n == g->cap) {
            size_t ncap = g->cap ? 2 * g->cap : 1 << 16;
            mstring *v = realloc(g->v, ncap * sizeof *v);
            if (!v)
                return NP_ENOMEM;
            g->v = v;
            g->cap = ncap;
        }
        g->v[g->n++] = (mstring){.h1 = g->h1, .h2 = g->h2, .code = c, .len = (uint8_t)(len + 1)};
        int rc = enumerate(g, len + 1, c, d);
        g->blank = b;
        g->tile[b] = (uint16_t)bt;
        g->tile[to] = (uint16_t)t;
        g->h1 ^= s1;
        g->h2 ^= s2;
        if (rc != NP_OK)
            return rc;
    }
    return NP_OK;
}

static int move_at(const mstring *m, int i)
{
    return (int)(m->code >> (2 * (m->len - 1 - i))) & 3;
}

/* The cells the blank visits (the start included), as offsets from the
 * start encoded row * 64 + col, sorted. @return how many. */
static int visited(const mstring *m, int *out)
{
    int r = 0, c = 0, n = 0;
    out[n++] = 0;
    for (int i = 0; i < m->len; i++) {
        int d = move_at(m, i);
        r += drow[d];
        c += dcol[d];
        int key = r * 64 + c, j;
        for (j = 0; j < n && out[j] != key; j++)
            ;
        if (j == n)
            out[n++] = key;
    }
    /* insertion sort: n <= 17 */
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && out[j - 1] > out[j]; j--) {
            int x = out[j];
            out[j] = out[j - 1];
            out[j - 1] = x;
        }
    return n;
}

static bool subset(const int *a, int na, const int *b, int nb)
{
    int j = 0;
    for (int i = 0; i < na; i++) {
        while (j < nb && b[j] < a[i])
            j++;
        if (j == nb || b[j] != a[i])
            return false;
    }
    return true;
}

/* A forbidden string, by length and code. */
typedef struct fstring {
    uint8_t len;
    uint32_t code;
} fstring;

static int fstring_cmp(const void *pa, const void *pb)
{
    const fstring *a = pa, *b = pb;
    if (a->len != b->len)
        return a->len < b->len ? -1 : 1;
    return a->code < b->code ? -1 : a->code > b->code;
}

static bool is_forbidden(const fstring *f, size_t n, int len, uint32_t code)
{
    fstring key = {.len = (uint8_t)len, .code = code};
    return bsearch(&key, f, n, sizeof *f, fstring_cmp) != NULL;
}

/* Does a proper substring of (len, code) appear in f? */
static bool has_forbidden_part(const fstring *f, size_t n, int len, uint32_t code)
{
    for (int l = 2; l < len; l++)
        for (int start = 0; start + l <= len; start++) {
            uint32_t part = (code >> (2 * (len - start - l))) & ((1u << (2 * l)) - 1);
            if (is_forbidden(f, n, l, part))
                return true;
        }
    return false;
}

/* ---- the machine (Aho-Corasick) ------------------------------------------------- */

int np__fsm_build(np__fsm *out, int maxlen)
{
    memset(out, 0, sizeof *out);
    if (maxlen < 2 || maxlen > 16)
        return NP_EINVAL;
    grid *g = calloc(1, sizeof *g);
    if (!g)
        return NP_ENOMEM;
    g->maxlen = maxlen;
    g->side = 2 * maxlen + 1;
    for (int c = 0; c < g->side * g->side; c++)
        g->tile[c] = (uint16_t)c;
    g->blank = maxlen * g->side + maxlen;
    int rc = enumerate(g, 0, 0, -1);
    fstring *f = NULL;
    size_t nf = 0;
    if (rc == NP_OK)
        f = malloc((g->n + 4) * sizeof *f);
    if (rc == NP_OK && !f)
        rc = NP_ENOMEM;
    if (rc == NP_OK) {
        /* the strings undoing a move */
        for (int d = 0; d < 4; d++)
            f[nf++] = (fstring){.len = 2, .code = (uint32_t)(d << 2 | NP_DIR_OPPOSITE(d))};
        qsort(g->v, g->n, sizeof *g->v, mstring_cmp);
        /* Within a group of equivalent strings (sorted: shortest, then first
         * in move order), A is forbidden when an earlier B visits only cells
         * A visits. */
        int va[20], vb[20];
        for (size_t i = 0; i < g->n;) {
            size_t j = i + 1;
            while (j < g->n && g->v[j].h1 == g->v[i].h1 && g->v[j].h2 == g->v[i].h2)
                j++;
            for (size_t a = i + 1; a < j; a++) {
                int na = visited(&g->v[a], va);
                for (size_t b = i; b < a; b++) {
                    if (g->v[b].len == g->v[a].len && g->v[b].code == g->v[a].code)
                        continue;
                    int nb = visited(&g->v[b], vb);
                    if (subset(vb, nb, va, na)) {
                        f[nf++] = (fstring){.len = g->v[a].len, .code = g->v[a].code};
                        break;
                    }
                }
            }
            i = j;
        }
    }
    free(g->v);
    free(g);
    /* Keep the strings with no forbidden proper substring: the machine stops
     * a path at the first one, so the others can never be completed. */
    if (rc == NP_OK) {
        qsort(f, nf, sizeof *f, fstring_cmp);
        fstring *keep = malloc((nf ? nf : 1) * sizeof *keep);
        size_t k = 0;
        for (size_t i = 0; keep && i < nf; i++) {
            if (i > 0 && fstring_cmp(&f[i], &f[i - 1]) == 0)
                continue;
            if (!has_forbidden_part(f, nf, f[i].len, f[i].code))
                keep[k++] = f[i];
        }
        free(f);
        f = keep;
        nf = k;
        if (!keep)
            rc = NP_ENOMEM;
    }
    /* The trie of the forbidden strings, then its failure links and the
     * completed transitions (breadth first). */
    size_t cap = 1;
    for (size_t i = 0; rc == NP_OK && i < nf; i++)
        cap += f[i].len;
    int32_t(*next)[4] = rc == NP_OK ? malloc(cap * sizeof *next) : NULL;
    int32_t *fail = rc == NP_OK ? malloc(cap * sizeof *fail) : NULL;
    int32_t *queue = rc == NP_OK ? malloc(cap * sizeof *queue) : NULL;
    uint8_t *end = rc == NP_OK ? calloc(cap, 1) : NULL;
    if (rc == NP_OK && (!next || !fail || !queue || !end))
        rc = NP_ENOMEM;
    int nstates = 1;
    if (rc == NP_OK) {
        memset(next, -1, cap * sizeof *next);
        for (size_t i = 0; i < nf; i++) {
            int s = 0;
            for (int k = 0; k < f[i].len; k++) {
                int d = (int)(f[i].code >> (2 * (f[i].len - 1 - k))) & 3;
                if (next[s][d] < 0)
                    next[s][d] = nstates++;
                s = next[s][d];
            }
            end[s] = 1;
        }
        size_t head = 0, tail = 0;
        fail[0] = 0;
        for (int d = 0; d < 4; d++) {
            if (next[0][d] < 0) {
                next[0][d] = 0;
            } else {
                fail[next[0][d]] = 0;
                queue[tail++] = next[0][d];
            }
        }
        while (head < tail) {
            int s = queue[head++];
            end[s] |= end[fail[s]];
            for (int d = 0; d < 4; d++) {
                int t = next[s][d];
                if (t >= 0) {
                    fail[t] = next[fail[s]][d];
                    queue[tail++] = t;
                } else {
                    next[s][d] = next[fail[s]][d];
                }
            }
        }
        /* A move into a state that ends a forbidden string is refused. The
         * start is state 0; states that end one are never entered. */
        for (int s = 0; s < nstates; s++)
            for (int d = 0; d < 4; d++)
                if (end[next[s][d]])
                    next[s][d] = -1;
    }
    int32_t(*table)[4] = rc == NP_OK ? malloc((size_t)nstates * sizeof *table) : NULL;
    if (rc == NP_OK && !table)
        rc = NP_ENOMEM;
    for (int st = 0; rc == NP_OK && st < nstates; st++)
        for (int d = 0; d < 4; d++)
            table[st][d] = (int32_t)next[st][d];
    free(next);
    free(fail);
    free(queue);
    free(end);
    free(f);
    if (rc != NP_OK)
        return rc;
    out->nstates = nstates;
    out->maxlen = maxlen;
    out->nforbidden = (int)nf;
    out->next = (const int32_t(*)[4])table;
    return NP_OK;
}

void np__fsm_free(np__fsm *f)
{
    free((void *)f->next);
    memset(f, 0, sizeof *f);
}
