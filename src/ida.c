/* ida.c - the IDA* engine: one board, moves applied and undone in place. */
#include "npuzzle/ida.h"

#include <limits.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "npuzzle/error.h"
#include "npuzzle/sys.h"
#include "fsm.h"
#include "pdbset_internal.h"

const char *np_status_name(np_status s)
{
    switch (s) {
    case NP_STATUS_SOLVED: return "solved";
    case NP_STATUS_UNSOLVABLE: return "unsolvable";
    case NP_STATUS_LIMIT: return "limit";
    case NP_STATUS_ERROR: return "error";
    }
    return "?";
}

int np_solution_check(const np_board *start, const np_geom *g, const char *moves)
{
    np_board b = *start;
    if (np_board_apply_moves(&b, g, moves, NULL) != NP_OK)
        return NP_EINVAL;
    return np_board_is_goal(&b, g) ? NP_OK : NP_EINVAL;
}

/* ---- search state ------------------------------------------------------ */

/* How a search (or one piece of it) ended: still running, a solution found,
 * or stopped by a limit, a cancel or another thread's solution. */
enum { RUN = 0, FOUND = 1, STOPPED = 2, CUT = 3 /* a node's loop only: BPMX pruned it */ };

/* How often (in generated nodes) the clock, the node limit and the halt flag
 * are looked at: rare enough to cost nothing, often enough for a timeout to
 * be honoured within a few milliseconds. */
#define CHECK_EVERY (1u << 16)

/* What the threads searching one board share. */
typedef struct shared {
    int halt;           /* set when a limit (nodes, time, cancel) was hit;
                                 * read and written with relaxed atomics: a flag, it
                                 * orders nothing else */
    size_t found_piece; /* the first piece of the iteration known to hold a
                         * solution (SIZE_MAX: none): the pieces after it stop
                         * (atomic) */
    uint64_t generated; /* generated nodes reported at checks (atomic) */
    uint64_t max_nodes;
    double deadline;
    const volatile int *cancel;
    const size_t *stop_from; /* if not NULL, pieces from this index on stop (atomic;
                              * np_piece_list_stop) */
    /* While an iteration's pieces are searched on the threads, the journal
     * that wants its running counts and the iteration (piece_iteration sets
     * both, and clears them after), how often (ms) and when to tell it next
     * (np_clock() ms; atomic: the thread that moves it on tells it). */
    const np_journal *running;
    const np_iteration *running_it;
    uint64_t running_ms, running_due;
} shared;

/* One lookup of the additive PDB sum: on the board itself, or on its mirror
 * (the reflected lookup: the transposed board with its tiles renamed, whose
 * pattern tiles stand on the mirror cells of their mirror tiles). A move of
 * tile t changes one pattern's entry in each lookup. The lookup's state
 * changes with every move; its step tables (pdb_steps) are read-only and kept
 * apart, so that the state of both lookups shares a few cache lines. */
typedef struct pdb_lookup {
    int sum;                           /* the patterns' values, summed */
    int md[NP_PARTITION_MAX];          /* Manhattan sum of each pattern's tiles */
    int value[NP_PARTITION_MAX];       /* each pattern's table value */
    uint64_t index[NP_PARTITION_MAX];  /* each pattern's table index (rank.h) */
    uint64_t labels[NP_PARTITION_MAX]; /* the labels each pattern's tiles stand on (zero-aware) */
} pdb_lookup;

/* How a lookup's index steps (np_rank_moved, rank.h), indexed by the board's
 * tiles and cells, already translated for the mirror. */
typedef struct pdb_steps {
    int8_t pattern_of[NP_MAX_CELLS]; /* the pattern whose entry a move of tile t changes */
    uint64_t weight[NP_MAX_CELLS];   /* the weight in that pattern of t (of its mirror tile) */
    int64_t pass[NP_MAX_CELLS][NP_MAX_CELLS]; /* np_rank_pass of tile u passed by t; 0 for a tile
                                               * of another pattern and for the blank */
    np_rank_steps cells;                      /* label steps of a tile leaving cell c */
    uint8_t label[NP_MAX_CELLS]; /* the label of each cell (of its mirror cell, for the mirror) */
} pdb_steps;

/* What a move changed in one lookup, to undo it. */
typedef struct pdb_undo {
    int pattern, value;
    uint64_t index, labels;
} pdb_undo;

/* Linear conflict state. Each line has a code whose digits (base side+1) are,
 * cell by cell along the line, 1 + the goal position on the line of the tile
 * there, or 0 for the blank and tiles whose goal is off the line. A move
 * changes three codes by one digit each, in O(1); a table maps a code to the
 * line's conflict moves (computed from the digits when the table would be too
 * large, on 8-wide boards). */
typedef struct lc_lines {
    int32_t row_code[NP_MAX_SIDE], col_code[NP_MAX_SIDE];
    int32_t row_pow[NP_MAX_SIDE], col_pow[NP_MAX_SIDE]; /* digit weights along a row, a column */
    int8_t row_key[NP_MAX_SIDE]
                  [NP_MAX_CELLS]; /* goal column of tile t if its goal is in row r, else -1 */
    int8_t col_key[NP_MAX_SIDE]
                  [NP_MAX_CELLS]; /* goal row of tile t if its goal is in column k, else -1 */
    uint8_t *row_conflicts, *col_conflicts; /* code -> conflict moves, or NULL */
    bool own_tables;
} lc_lines;

/* What a move changed in the line codes, to undo it. */
typedef struct lc_undo {
    int from_line, to_line,
        along; /* the lines the tile leaves and enters; the line it moves along */
    int32_t from_code, to_code, along_code;
} lc_undo;

typedef struct search {
    uint8_t tiles[NP_MAX_CELLS];
    int blank;
    int bound;      /* current f bound (in weighted units when weighted) */
    int next_bound; /* least f that exceeded the bound in this iteration */
    int outcome;    /* RUN, FOUND or STOPPED */
    int length;
    int gw, hw; /* f = gw*g + hw*h; 1,1 for optimal search */
    int side;   /* 4 or 5: the specialised kernels of those square boards; 0: general */
    uint64_t generated, expanded;
    uint64_t next_check, reported;
    size_t piece;            /* the piece being searched (0 in a search not split) */
    const int32_t (*fsm)[4]; /* the pruning machine (fsm.h): next state per move */
    bool machine;            /* fsm is more than parent pruning */
    bool reflect;            /* K_PDBD: the mirror's lookups too */
    bool dual;               /* K_PDBD: search_set_board sets dual_term */
    bool za;                 /* zero-aware tables (np__za_value) */
    shared *sh;
    const np_geom *g;
    /* mdd[t][c][d]: change of Manhattan distance when tile t, standing on
     * cell c, slides into the blank that moved to c in direction d. One
     * lookup per child instead of two distances. */
    int8_t mdd[NP_MAX_CELLS][NP_MAX_CELLS][4];
    int8_t nbr[NP_MAX_CELLS][4];
    uint8_t row[NP_MAX_CELLS], col[NP_MAX_CELLS]; /* copies of np_geom's: no division in the loop */
    lc_lines lc;
    const struct np_pdbset *pdbs;
    pdb_lookup plain, mirror;
    pdb_steps plain_steps, mirror_steps;
    uint8_t path[NP_MAX_PATH];
    /* K_PDBD: each pattern's dual term (np__pdb_dual_term) on the board and
     * on its mirror, and their sums; kept for every node the kernel expands */
    int dual_term[2][NP_PARTITION_MAX];
    int dual_sum[2];
} search;

/* A search (or a thread's copy of one; free it with free()): aligned to 128 bytes
 * and padded to a multiple of 128 with 128 to spare, so that no cache line,
 * nor the pair of lines the hardware prefetches together, holds the hot
 * fields of two threads' copies. Copies from plain malloc sit end to start,
 * and the dual terms at the end of one were written on every node next to
 * the board at the start of the next: --dual ran 1.54 times faster on two
 * threads than on one, instead of about 1.9. */
static search *search_alloc(void)
{
    const size_t line = 128, size = (sizeof(search) + 2 * line - 1) / line * line;
    return aligned_alloc(line, size);
}

/* Conflict moves of a line from its code (see lc_lines). */
static int code_conflicts(int32_t code, int base, int len)
{
    int8_t keys[NP_MAX_SIDE];
    for (int i = 0; i < len; i++) {
        keys[i] = (int8_t)(code % base - 1);
        code /= base;
    }
    return np_lc_keys(keys, len);
}

static inline int row_conflicts(const search *s, int32_t code)
{
    return s->lc.row_conflicts ? s->lc.row_conflicts[code]
                               : code_conflicts(code, s->g->cols + 1, s->g->cols);
}

static inline int col_conflicts(const search *s, int32_t code)
{
    return s->lc.col_conflicts ? s->lc.col_conflicts[code]
                               : code_conflicts(code, s->g->rows + 1, s->g->rows);
}

/* Table of conflicts for every code of a line of `len` cells, or NULL when it
 * would exceed 4 MiB (the caller then decodes). */
static uint8_t *conflict_table(int len)
{
    int64_t size = 1;
    for (int i = 0; i < len; i++)
        size *= len + 1;
    if (size > (1 << 22))
        return NULL;
    uint8_t *tab = malloc((size_t)size);
    if (tab)
        for (int64_t code = 0; code < size; code++)
            tab[code] = (uint8_t)code_conflicts((int32_t)code, len + 1, len);
    return tab;
}

/* *p = min(*p, v), atomically (relaxed: a flag-like index, it orders nothing). */
static void atomic_lower(size_t *p, size_t v)
{
    size_t seen = __atomic_load_n(p, __ATOMIC_RELAXED);
    while (v < seen &&
           !__atomic_compare_exchange_n(p, &seen, v, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED))
        ;
}

/* A limit or cancel reached by the nodes counted in sh (`now` on the clock)
 * halts the search. @return whether it is halted. */
static bool shared_halted(shared *sh, double now)
{
    uint64_t total = __atomic_load_n(&sh->generated, __ATOMIC_RELAXED);
    if (!__atomic_load_n(&sh->halt, __ATOMIC_RELAXED) &&
        ((sh->cancel && *sh->cancel) || (sh->max_nodes && total >= sh->max_nodes) ||
         (sh->deadline > 0 && now >= sh->deadline)))
        __atomic_store_n(&sh->halt, 1, __ATOMIC_RELAXED);
    return __atomic_load_n(&sh->halt, __ATOMIC_RELAXED) != 0;
}

static int check_limits(search *s)
{
    shared *sh = s->sh;
    uint64_t total =
        __atomic_add_fetch(&sh->generated, s->generated - s->reported, __ATOMIC_RELAXED);
    s->reported = s->generated;
    /* Look again after CHECK_EVERY nodes, or sooner when the node limit is
     * closer: a serial search then stops exactly at it. */
    uint64_t step = CHECK_EVERY;
    if (sh->max_nodes && total < sh->max_nodes && sh->max_nodes - total < step)
        step = sh->max_nodes - total;
    s->next_check = s->generated + step;
    if (sh->running_it) {
        const uint64_t now = (uint64_t)(np_clock() * 1000.0);
        uint64_t due = __atomic_load_n(&sh->running_due, __ATOMIC_RELAXED);
        if (now >= due &&
            __atomic_compare_exchange_n(&sh->running_due, &due, now + sh->running_ms, false,
                                        __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
            /* the lock the finished pieces' calls take: the journal's calls
             * never overlap */
#pragma omp critical(np_ida_found)
            sh->running->running(sh->running->ctx, sh->running_it,
                                 __atomic_load_n(&sh->generated, __ATOMIC_RELAXED));
        }
    }
    if (__atomic_load_n(&sh->halt, __ATOMIC_RELAXED) ||
        s->piece > __atomic_load_n(&sh->found_piece, __ATOMIC_RELAXED) ||
        (sh->stop_from && s->piece >= __atomic_load_n(sh->stop_from, __ATOMIC_RELAXED)))
        return 1;
    if ((sh->max_nodes && total >= sh->max_nodes) || (sh->cancel && *sh->cancel) ||
        (sh->deadline > 0 && np_clock() >= sh->deadline)) {
        __atomic_store_n(&sh->halt, 1, __ATOMIC_RELAXED);
        return 1;
    }
    return 0;
}

/* One instantiation of the kernel per heuristic, with and without weights. */
/* K_PDBD: K_PDB, with the mirror when s->reflect, and the dual lookups
 * (np__pdb_dual) with bidirectional pathmax; optimal search only. */
enum { K_MD, K_LC, K_PDB, K_PDBR, K_PDBD };

/* Kernel instantiations: heuristic x weighted x board side x pruning x
 * zero-aware tables. The side is 4 or 5 for the 15- and 24-puzzle, where
 * neighbours, rows and columns are computed from constants, and 0 for any
 * other board (tables); machine 1 looks the pruning machine up, 0 is parent
 * pruning computed in place (the papers' search, at its old speed); za 1
 * reads zero-aware tables (PDB kernels only, NP_PDB_KERNELS once each way),
 * so that the plain tables' search keeps no region state. One line per side
 * and pruning: clang-format leaves the lists alone. */
/* clang-format off */
#define NP_PDB_KERNELS(X, za, z) \
    X(pdb##z, K_PDB, 0, 0, 0, za) X(pdbr##z, K_PDBR, 0, 0, 0, za) X(pdb_w##z, K_PDB, 1, 0, 0, za) X(pdbr_w##z, K_PDBR, 1, 0, 0, za) \
    X(pdb4##z, K_PDB, 0, 4, 0, za) X(pdbr4##z, K_PDBR, 0, 4, 0, za) X(pdb4_w##z, K_PDB, 1, 4, 0, za) X(pdbr4_w##z, K_PDBR, 1, 4, 0, za) \
    X(pdb5##z, K_PDB, 0, 5, 0, za) X(pdbr5##z, K_PDBR, 0, 5, 0, za) X(pdb5_w##z, K_PDB, 1, 5, 0, za) X(pdbr5_w##z, K_PDBR, 1, 5, 0, za) \
    X(pdb_m##z, K_PDB, 0, 0, 1, za) X(pdbr_m##z, K_PDBR, 0, 0, 1, za) X(pdb_w_m##z, K_PDB, 1, 0, 1, za) X(pdbr_w_m##z, K_PDBR, 1, 0, 1, za) \
    X(pdb4_m##z, K_PDB, 0, 4, 1, za) X(pdbr4_m##z, K_PDBR, 0, 4, 1, za) X(pdb4_w_m##z, K_PDB, 1, 4, 1, za) X(pdbr4_w_m##z, K_PDBR, 1, 4, 1, za) \
    X(pdb5_m##z, K_PDB, 0, 5, 1, za) X(pdbr5_m##z, K_PDBR, 0, 5, 1, za) X(pdb5_w_m##z, K_PDB, 1, 5, 1, za) X(pdbr5_w_m##z, K_PDBR, 1, 5, 1, za) \
    X(pdbd##z, K_PDBD, 0, 0, 0, za) X(pdbd4##z, K_PDBD, 0, 4, 0, za) X(pdbd5##z, K_PDBD, 0, 5, 0, za) \
    X(pdbd_m##z, K_PDBD, 0, 0, 1, za) X(pdbd4_m##z, K_PDBD, 0, 4, 1, za) X(pdbd5_m##z, K_PDBD, 0, 5, 1, za)
#define NP_KERNEL_LIST(X) \
    X(md, K_MD, 0, 0, 0, 0) X(lc, K_LC, 0, 0, 0, 0) X(md_w, K_MD, 1, 0, 0, 0) X(lc_w, K_LC, 1, 0, 0, 0) \
    X(md4, K_MD, 0, 4, 0, 0) X(lc4, K_LC, 0, 4, 0, 0) X(md4_w, K_MD, 1, 4, 0, 0) X(lc4_w, K_LC, 1, 4, 0, 0) \
    X(md5, K_MD, 0, 5, 0, 0) X(lc5, K_LC, 0, 5, 0, 0) X(md5_w, K_MD, 1, 5, 0, 0) X(lc5_w, K_LC, 1, 5, 0, 0) \
    X(md_m, K_MD, 0, 0, 1, 0) X(lc_m, K_LC, 0, 0, 1, 0) X(md_w_m, K_MD, 1, 0, 1, 0) X(lc_w_m, K_LC, 1, 0, 1, 0) \
    X(md4_m, K_MD, 0, 4, 1, 0) X(lc4_m, K_LC, 0, 4, 1, 0) X(md4_w_m, K_MD, 1, 4, 1, 0) X(lc4_w_m, K_LC, 1, 4, 1, 0) \
    X(md5_m, K_MD, 0, 5, 1, 0) X(lc5_m, K_LC, 0, 5, 1, 0) X(md5_w_m, K_MD, 1, 5, 1, 0) X(lc5_w_m, K_LC, 1, 5, 1, 0) \
    NP_PDB_KERNELS(X, 0, ) NP_PDB_KERNELS(X, 1, _z)
/* clang-format on */

#define NP_DECLARE_KERNEL(name, kind, weighted, side, machine, za) \
    static int dfs_##name(search *s, int depth, int h, int state);
NP_KERNEL_LIST(NP_DECLARE_KERNEL)

/* The kernel for (kind, weighted, side, machine, za); all five are constants
 * at every call site inside the kernel, so this folds to one direct call. */
static inline __attribute__((always_inline)) int dfs_call(search *s, int depth, int h, int state,
                                                          const int kind, const int weighted,
                                                          const int side, const int machine,
                                                          const int za)
{
#define NP_CALL_KERNEL(name, k, w, sd, m, z) \
    if (kind == (k) && weighted == (w) && side == (sd) && machine == (m) && za == (z)) \
        return dfs_##name(s, depth, h, state);
    NP_KERNEL_LIST(NP_CALL_KERNEL)
#undef NP_CALL_KERNEL
    return RUN;
}

/* Cell the blank reaches from `blank` moving in direction d, or -1; row and
 * column of a cell. With side 4 or 5 from constants (board.h's arithmetic),
 * else from the tables. */
static inline __attribute__((always_inline)) int neighbour(const search *s, int blank, int d,
                                                           const int side)
{
    return side ? np_cell_neighbour(blank, d, side, side) : s->nbr[blank][d];
}

static inline __attribute__((always_inline)) int cell_row(const search *s, int c, const int side)
{
    return side ? np_cell_row(c, side) : s->row[c];
}

static inline __attribute__((always_inline)) int cell_col(const search *s, int c, const int side)
{
    return side ? np_cell_col(c, side) : s->col[c];
}

/* f of a child at depth `depth` with heuristic h. */
static inline __attribute__((always_inline)) int f_value(const search *s, int depth, int h,
                                                         const int weighted)
{
    return weighted ? s->gw * depth + s->hw * h : depth + h;
}

/* ---- one move's apply and undo, per heuristic ---------------------------- */

/* Tile t slides from cell `from` into the blank on cell `to` (the blank moving
 * in direction d). A vertical move takes the tile from one row to the other
 * (the row codes of both change) and keeps it in its column, where only its
 * digit's place changes; a horizontal move does the same with columns.
 * @return the change of the conflict moves. */
static inline __attribute__((always_inline)) int lc_apply(search *s, int t, int from, int to, int d,
                                                          const int side, lc_undo *u)
{
    lc_lines *lc = &s->lc;
    if (d == NP_UP || d == NP_DOWN) {
        u->from_line = cell_row(s, from, side);
        u->to_line = cell_row(s, to, side);
        u->along = cell_col(s, to, side);
        const int32_t w = lc->row_pow[u->along];
        u->from_code = lc->row_code[u->from_line];
        u->to_code = lc->row_code[u->to_line];
        u->along_code = lc->col_code[u->along];
        lc->row_code[u->to_line] = u->to_code + (lc->row_key[u->to_line][t] + 1) * w;
        lc->row_code[u->from_line] = u->from_code - (lc->row_key[u->from_line][t] + 1) * w;
        lc->col_code[u->along] +=
            (lc->col_key[u->along][t] + 1) * (lc->col_pow[u->to_line] - lc->col_pow[u->from_line]);
        return row_conflicts(s, lc->row_code[u->to_line]) +
            row_conflicts(s, lc->row_code[u->from_line]) - row_conflicts(s, u->to_code) -
            row_conflicts(s, u->from_code);
    }
    u->from_line = cell_col(s, from, side);
    u->to_line = cell_col(s, to, side);
    u->along = cell_row(s, to, side);
    const int32_t w = lc->col_pow[u->along];
    u->from_code = lc->col_code[u->from_line];
    u->to_code = lc->col_code[u->to_line];
    u->along_code = lc->row_code[u->along];
    lc->col_code[u->to_line] = u->to_code + (lc->col_key[u->to_line][t] + 1) * w;
    lc->col_code[u->from_line] = u->from_code - (lc->col_key[u->from_line][t] + 1) * w;
    lc->row_code[u->along] +=
        (lc->row_key[u->along][t] + 1) * (lc->row_pow[u->to_line] - lc->row_pow[u->from_line]);
    return col_conflicts(s, lc->col_code[u->to_line]) +
        col_conflicts(s, lc->col_code[u->from_line]) - col_conflicts(s, u->to_code) -
        col_conflicts(s, u->from_code);
}

/* Undo lc_apply() of a move in direction d. */
static inline __attribute__((always_inline)) void lc_undo_move(search *s, int d, const lc_undo *u)
{
    lc_lines *lc = &s->lc;
    if (d == NP_UP || d == NP_DOWN) {
        lc->row_code[u->from_line] = u->from_code;
        lc->row_code[u->to_line] = u->to_code;
        lc->col_code[u->along] = u->along_code;
    } else {
        lc->col_code[u->from_line] = u->from_code;
        lc->col_code[u->to_line] = u->to_code;
        lc->row_code[u->along] = u->along_code;
    }
}

/* The table index, after tile t leaves cell `from` (the blank moving in
 * direction d), of the pattern whose entry that changes in lookup lk (with
 * step tables st); the entry is prefetched. */
static inline __attribute__((always_inline)) uint64_t
pdb_child_index(const search *s, const pdb_lookup *lk, const pdb_steps *st, int t, int from, int d)
{
    const int p = st->pattern_of[t];
    const uint8_t *between = st->cells.between[from][d];
    int64_t passed = 0;
    for (int q = 0; q < st->cells.nbetween[from][d]; q++)
        passed += st->pass[t][s->tiles[between[q]]];
    const uint64_t i = np_rank_moved(lk->index[p], st->weight[t], st->cells.delta[from][d], passed);
    np__pdb_prefetch(s->pdbs, p, i);
    return i;
}

/* Tile t moved from cell `from` to cell `to` (the blank's), changing the
 * Manhattan sum of its pattern p (in this lookup, with label map st) by dmd
 * and its index to `index` (pdb_child_index): look the entry up. With
 * zero-aware tables the entry's value is the one for the blank's region, now
 * on `from`: only pattern p's can change, as the blank steps between
 * neighbouring cells that no other pattern's tile holds.
 * @return the lookup's new sum. */
static inline __attribute__((always_inline)) int pdb_apply(const search *s, pdb_lookup *lk,
                                                           const pdb_steps *st, int p, int dmd,
                                                           uint64_t index, int from, int to,
                                                           pdb_undo *u, const int za)
{
    u->pattern = p;
    u->value = lk->value[p];
    u->index = lk->index[p];
    lk->md[p] += dmd;
    lk->index[p] = index;
    if (za) {
        u->labels = lk->labels[p];
        lk->labels[p] ^= UINT64_C(1) << st->label[from] | UINT64_C(1) << st->label[to];
        lk->value[p] = np__za_value(s->pdbs, s->pdbs->za_region[p], s->pdbs->view[p].payload[index],
                                    lk->md[p], lk->labels[p], st->label[from]);
    } else {
        lk->value[p] = np_pdb_view_value(&s->pdbs->view[p], index, lk->md[p]);
    }
    lk->sum += lk->value[p] - u->value;
    return lk->sum;
}

static inline __attribute__((always_inline)) void pdb_undo_move(pdb_lookup *lk, int dmd,
                                                                const pdb_undo *u, const int za)
{
    const int p = u->pattern;
    lk->md[p] -= dmd;
    lk->sum += u->value - lk->value[p];
    lk->value[p] = u->value;
    lk->index[p] = u->index;
    if (za)
        lk->labels[p] = u->labels;
}

/* What a move changed in the dual terms, to undo it. */
typedef struct dual_undo {
    int frames;             /* frames updated: 0, 1 or 2 */
    int pattern[2][2];      /* per frame the patterns updated (-1: none) */
    int term[2][2], sum[2]; /* their terms and the sums before */
} dual_undo;

/* Frame f's dual sum after the move that took the blank from frame cell hb to
 * hf (s->tiles already moved): the terms of the patterns home to hb and hf
 * change, the others stay (np__pdb_dual_term). */
static inline __attribute__((always_inline)) int dual_move(search *s, int f, int hb, int hf,
                                                           dual_undo *u)
{
    const struct np_pdbset *set = s->pdbs;
    const int pb = set->pat_of_home[hb], pf = set->pat_of_home[hf];
    u->frames = f + 1;
    u->sum[f] = s->dual_sum[f];
    u->pattern[f][0] = pb;
    u->pattern[f][1] = pf != pb ? pf : -1;
    for (int i = 0; i < 2; i++) {
        const int p = u->pattern[f][i];
        if (p < 0)
            continue;
        u->term[f][i] = s->dual_term[f][p];
        s->dual_term[f][p] = np__pdb_dual_term(set, s->tiles, f, hf, p);
        s->dual_sum[f] += s->dual_term[f][p] - u->term[f][i];
    }
    return s->dual_sum[f];
}

static inline __attribute__((always_inline)) void dual_undo_move(search *s, const dual_undo *u)
{
    for (int f = u->frames - 1; f >= 0; f--) {
        for (int i = 1; i >= 0; i--)
            if (u->pattern[f][i] >= 0)
                s->dual_term[f][u->pattern[f][i]] = u->term[f][i];
        s->dual_sum[f] = u->sum[f];
    }
}

/* The dual lookups of the child the blank's move from `blank` to s->blank
 * made (s->tiles already moved), kept up to date in s: raise *h to them when
 * they are higher. @return the f they give. The mirror's only when the
 * board's own does not prune already. */
static inline __attribute__((always_inline)) int search_dual_move(search *s, int depth, int blank,
                                                                  int *h, dual_undo *u)
{
    u->frames = 0;
    int dh = dual_move(s, 0, blank, s->blank, u);
    if (dh > *h)
        *h = dh;
    int f = f_value(s, depth, *h, 0);
    if (s->reflect && f <= s->bound) {
        const uint8_t *mc = s->g->mirror_cell;
        dh = dual_move(s, 1, mc[blank], mc[s->blank], u);
        if (dh > *h) {
            *h = dh;
            f = f_value(s, depth, *h, 0);
        }
    }
    return f;
}

/* The dual lookups of the board search_set_board put on the search (as
 * search_dual_move, for the pieces' list): raise *h to them when they are
 * higher. @return the f they give. The mirror's only when the board's own
 * does not prune already, as in the kernel. */
static inline __attribute__((always_inline)) int search_dual(const search *s, int depth, int *h)
{
    if (s->dual_sum[0] > *h)
        *h = s->dual_sum[0];
    int f = f_value(s, depth, *h, 0);
    if (s->reflect && f <= s->bound && s->dual_sum[1] > *h) {
        *h = s->dual_sum[1];
        f = f_value(s, depth, *h, 0);
    }
    return f;
}

/* ---- the kernel ------------------------------------------------------------ */

/* Expand one node whose f is within the bound and which is not the goal.
 * `kind`, `weighted`, `side`, `machine` and `za` are compile-time constants in
 * each instantiation, so the Manhattan kernel carries no trace of the others. */
static inline __attribute__((always_inline)) int dfs_node(search *s, int depth, int h, int state,
                                                          const int kind, const int weighted,
                                                          const int side, const int machine,
                                                          const int za)
{
    const bool pdb = kind == K_PDB || kind == K_PDBR || kind == K_PDBD;
    const bool reflect = kind == K_PDBR || (kind == K_PDBD && s->reflect);
    if (__builtin_expect(s->generated >= s->next_check, 0) && check_limits(s)) {
        s->outcome = STOPPED;
        return STOPPED;
    }
    if (__builtin_expect(depth >= NP_MAX_PATH, 0)) {
        s->outcome = STOPPED;
        return STOPPED;
    }
    s->expanded++;
    const int blank = s->blank;
    /* The pruning machine's next state after move d, -1 when it refuses the
     * move. Parent pruning (the 5-state machine: state = 1 + the last move) is
     * computed in place rather than looked up: the papers' search pays nothing. */
    const int32_t *next = machine ? s->fsm[state] : NULL;
#define NEXT_STATE(d) (machine ? next[d] : (state + (d) == 4 ? -1 : (d) + 1))
    uint64_t plain_index[4], mirror_index[4];
    if (pdb) {
        /* Work out every child's changed index(es) first and prefetch the
         * entries: the table lookups are the cost of this search, and their
         * cache misses overlap this way instead of coming one at a time. */
        for (int d = 0; d < 4; d++) {
            const int from = neighbour(s, blank, d, side);
            if (NEXT_STATE(d) < 0 || from < 0)
                continue;
            const int t = s->tiles[from];
            plain_index[d] = pdb_child_index(s, &s->plain, &s->plain_steps, t, from, d);
            if (reflect)
                mirror_index[d] = pdb_child_index(s, &s->mirror, &s->mirror_steps, t, from, d);
        }
    }
    for (int d = 0; d < 4; d++) {
        if (NEXT_STATE(d) < 0)
            continue;
        const int from = neighbour(s, blank, d, side); /* the tile's cell; the blank's next */
        if (from < 0)
            continue;
        s->generated++;
        const int t = s->tiles[from];
        const int dmd = s->mdd[t][from][d];
        int child_h = h + dmd;
        lc_undo lc_saved;
        pdb_undo plain_saved, mirror_saved;
        bool mirrored = false;
        if (kind == K_LC)
            child_h += lc_apply(s, t, from, blank, d, side, &lc_saved);
        if (pdb) {
            child_h = pdb_apply(s, &s->plain, &s->plain_steps, s->plain_steps.pattern_of[t], dmd,
                                plain_index[d], from, blank, &plain_saved, za);
            /* The reflected sum can only raise h: skip it when the plain sum
             * already prunes this child (its f then stays a valid lower
             * bound for the next threshold). */
            mirrored = reflect && f_value(s, depth + 1, child_h, weighted) <= s->bound;
            if (mirrored) {
                const int mirror_h =
                    pdb_apply(s, &s->mirror, &s->mirror_steps, s->mirror_steps.pattern_of[t], dmd,
                              mirror_index[d], from, blank, &mirror_saved, za);
                if (mirror_h > child_h)
                    child_h = mirror_h;
            }
        }
        const int f = f_value(s, depth + 1, child_h, weighted);
        int r = RUN;
        if (f > s->bound) {
            if (f < s->next_bound)
                s->next_bound = f;
        } else {
            s->path[depth] = (uint8_t)d;
            s->tiles[blank] = (uint8_t)t;
            s->tiles[from] = 0;
            if (child_h == 0) {
                /* h is zero only on the goal for these heuristics (a PDB set
                 * covers every tile); the board is left solved. */
                s->length = depth + 1;
                s->outcome = FOUND;
                return FOUND;
            }
            s->blank = from;
            dual_undo dual_saved;
            const int dual_f =
                kind == K_PDBD ? search_dual_move(s, depth + 1, blank, &child_h, &dual_saved) : f;
            if (dual_f <= s->bound)
                r = dfs_call(s, depth + 1, child_h, NEXT_STATE(d), kind, weighted, side, machine,
                             za);
            else if (dual_f < s->next_bound)
                s->next_bound = dual_f;
            if (kind == K_PDBD)
                dual_undo_move(s, &dual_saved);
            s->blank = blank;
            s->tiles[from] = (uint8_t)t;
            s->tiles[blank] = 0;
            /* Bidirectional pathmax: h drops by at most one a move, so the
             * parent's distance is at least the child's h - 1; when that
             * prunes the parent, its other children need no search. */
            if (kind == K_PDBD && r == RUN && dual_f > s->bound) {
                const int parent_f = f_value(s, depth, child_h - 1, weighted);
                if (parent_f > s->bound) {
                    if (parent_f < s->next_bound)
                        s->next_bound = parent_f;
                    r = CUT;
                }
            }
        }
        if (kind == K_LC)
            lc_undo_move(s, d, &lc_saved);
        if (pdb) {
            pdb_undo_move(&s->plain, dmd, &plain_saved, za);
            if (mirrored)
                pdb_undo_move(&s->mirror, dmd, &mirror_saved, za);
        }
        if (r == CUT)
            return RUN;
        if (r != RUN)
            return r;
    }
    return RUN;
#undef NEXT_STATE
}

#define NP_DEFINE_KERNEL(name, kind, weighted, side, machine, za) \
    static int dfs_##name(search *s, int depth, int h, int state) \
    { \
        return dfs_node(s, depth, h, state, kind, weighted, side, machine, za); \
    }
NP_KERNEL_LIST(NP_DEFINE_KERNEL)

/* Entry into the kernel outside the recursion (root, frontier nodes). */
static int dfs_root(search *s, int kind, int weighted, int depth, int h, int state)
{
    const int m = s->machine, z = s->za;
#define NP_ROOT_CALL(side) \
    (m ? (z ? dfs_call(s, depth, h, state, kind, weighted, side, 1, 1) \
            : dfs_call(s, depth, h, state, kind, weighted, side, 1, 0)) \
       : (z ? dfs_call(s, depth, h, state, kind, weighted, side, 0, 1) \
            : dfs_call(s, depth, h, state, kind, weighted, side, 0, 0)))
    switch (s->side) {
    case 4: return NP_ROOT_CALL(4);
    case 5: return NP_ROOT_CALL(5);
    default: return NP_ROOT_CALL(0);
    }
#undef NP_ROOT_CALL
}

/* ---- tables and the root's state ------------------------------------------ */

/* The PDB lookups' step tables (see pdb_steps): the plain lookup's from the
 * rank module, the mirror's translated through the mirror tiles. */
static int search_pdb_tables(search *s, const np_geom *g, const np_pdbset *pdbs)
{
    pdb_steps *plain = &s->plain_steps, *mirror = &s->mirror_steps;
    for (int p = 0; p < pdbs->npat; p++)
        np_rank_tile_tables(&pdbs->ranker[p], pdbs->part.patterns[p].tiles, plain->weight,
                            plain->pass);
    for (int t = 1; t < g->cells; t++) {
        const int mt = g->mirror_tile[t];
        plain->pattern_of[t] = pdbs->pat_of[t];
        mirror->pattern_of[t] = pdbs->pat_of[mt];
        mirror->weight[t] = plain->weight[mt];
        for (int u = 1; u < g->cells; u++)
            mirror->pass[t][u] = plain->pass[mt][g->mirror_tile[u]];
    }
    uint8_t mirror_label[NP_MAX_CELLS] = {0}; /* the label of each cell's mirror cell */
    for (int c = 0; c < g->cells; c++)
        mirror_label[c] = g->label[g->mirror_cell[c]];
    /* Labels follow the rows (board.h): a step passes at most 2 * cols cells,
     * which the tables hold; anything else is refused, never half-filled. */
    memcpy(plain->label, g->label, sizeof plain->label);
    memcpy(mirror->label, mirror_label, sizeof mirror->label);
    if (np_rank_steps_init(&plain->cells, g, g->label) != NP_OK ||
        np_rank_steps_init(&mirror->cells, g, mirror_label) != NP_OK)
        return NP_EINVAL;
    return NP_OK;
}

/* Tables that depend on the geometry and heuristic only. */
static int search_tables(search *s, const np_geom *g, int kind, const np_pdbset *pdbs)
{
    memset(s, 0, sizeof *s);
    s->g = g;
    s->pdbs = pdbs;
    s->za = pdbs && pdbs->za;
    memcpy(s->nbr, g->nbr, sizeof s->nbr);
    memcpy(s->row, g->row, sizeof s->row);
    memcpy(s->col, g->col, sizeof s->col);
    for (int t = 1; t < g->cells; t++)
        for (int c = 0; c < g->cells; c++)
            for (int d = 0; d < 4; d++) {
                int from = g->nbr[c][NP_DIR_OPPOSITE(d)]; /* where the blank was */
                if (from >= 0)
                    s->mdd[t][c][d] = (int8_t)(g->dist[from][g->home[t]] - g->dist[c][g->home[t]]);
            }
    lc_lines *lc = &s->lc;
    np_lc_goal_keys(g, lc->row_key, lc->col_key);
    for (int k = 0, w = 1; k < g->cols; k++, w *= g->cols + 1)
        lc->row_pow[k] = w;
    for (int r = 0, w = 1; r < g->rows; r++, w *= g->rows + 1)
        lc->col_pow[r] = w;
    if (kind == K_LC) {
        lc->row_conflicts = conflict_table(g->cols);
        lc->col_conflicts = g->cols == g->rows ? lc->row_conflicts : conflict_table(g->rows);
        lc->own_tables = true;
    }
    return pdbs ? search_pdb_tables(s, g, pdbs) : NP_OK;
}

/* A second search sharing the first one's tables (for another thread). */
static void search_clone(search *dst, const search *src)
{
    *dst = *src;
    dst->lc.own_tables = false;
}

static void search_free_tables(search *s)
{
    if (!s->lc.own_tables)
        return;
    if (s->lc.col_conflicts != s->lc.row_conflicts)
        free(s->lc.col_conflicts);
    free(s->lc.row_conflicts);
}

/* One lookup's state from scratch: tile u of the looked-up board (the board
 * itself, or its mirror) stands on cell pos[u], ranked by its label. */
static void pdb_lookup_set(pdb_lookup *lk, const np_pdbset *pdbs, const uint8_t *pos,
                           const uint8_t *label)
{
    lk->sum = 0;
    for (int p = 0; p < pdbs->npat; p++) {
        lk->value[p] =
            np__pdb_lookup(pdbs, p, label, pos, &lk->md[p], &lk->index[p], &lk->labels[p]);
        lk->sum += lk->value[p];
    }
}

/* Put board b on the search and set up the incremental state. */
static void search_set_board(search *s, const np_board *b)
{
    const np_geom *g = s->g;
    memcpy(s->tiles, b->tiles, (size_t)g->cells);
    s->blank = b->blank;
    lc_lines *lc = &s->lc;
    memset(lc->row_code, 0, sizeof lc->row_code);
    memset(lc->col_code, 0, sizeof lc->col_code);
    for (int c = 0; c < g->cells; c++) {
        int r = s->row[c], k = s->col[c];
        lc->row_code[r] += (lc->row_key[r][s->tiles[c]] + 1) * lc->row_pow[k];
        lc->col_code[k] += (lc->col_key[k][s->tiles[c]] + 1) * lc->col_pow[r];
    }
    const struct np_pdbset *pdbs = s->pdbs;
    if (pdbs) {
        /* b is valid (np_ida_solve checks it): its tiles are a permutation, so
         * these set every tile's cell. On the mirror, tile u stands where its
         * mirror tile stands here, transposed. */
        uint8_t pos[NP_MAX_CELLS] = {0}, mirror_pos[NP_MAX_CELLS] = {0};
        for (int c = 0; c < g->cells; c++)
            pos[b->tiles[c]] = (uint8_t)c;
        for (int u = 0; u < g->cells; u++)
            mirror_pos[u] = g->mirror_cell[pos[g->mirror_tile[u]]];
        pdb_lookup_set(&s->plain, pdbs, pos, g->label);
        pdb_lookup_set(&s->mirror, pdbs, mirror_pos, g->label);
        for (int f = 0; f < 2 && s->dual; f++) {
            const int z = f ? g->mirror_cell[b->blank] : b->blank;
            s->dual_sum[f] = 0;
            for (int p = 0; p < pdbs->npat; p++) {
                s->dual_term[f][p] = np__pdb_dual_term(pdbs, b->tiles, f, z, p);
                s->dual_sum[f] += s->dual_term[f][p];
            }
        }
    }
}

/* The heuristic of the board on the search, computed from its state. */
static int search_h(const search *s, int kind, const np_board *b)
{
    switch (kind) {
    case K_LC: return np_h_linear_conflict(b, s->g);
    case K_PDB: return s->plain.sum;
    case K_PDBR: return s->plain.sum > s->mirror.sum ? s->plain.sum : s->mirror.sum;
    case K_PDBD: {
        int h = s->reflect ? search_h(s, K_PDBR, b) : s->plain.sum;
        if (s->dual_sum[0] > h)
            h = s->dual_sum[0];
        return s->reflect && s->dual_sum[1] > h ? s->dual_sum[1] : h;
    }
    default: return np_board_manhattan(b, s->g);
    }
}

/* ---- an iteration in pieces --------------------------------------------- */

/* The start of a piece: the board after `depth` moves (path[0..depth)), its
 * heuristic, and the counts the serial search had reached in the first moves
 * when it met this node. A goal piece is a goal met within the first moves:
 * the list ends there, as the serial search would. */
typedef struct task {
    np_board board;
    int depth, h, state; /* state: of the pruning machine after path */
    bool goal;
    uint64_t before_generated, before_expanded;
    size_t earlier; /* a list split again (frontier.mark): the index of its earlier piece */
    uint8_t path[64];
} task;

typedef struct frontier {
    task *v;
    size_t n, cap;
    uint64_t generated, expanded; /* the first moves' nodes */
    int next_bound;
    int limit; /* the pieces' depth */
    /* An iteration's list split again, deeper (resplit): its earlier pieces
     * are the nodes `mark` moves deep (0: none), met in order; nmarked of
     * them so far, of at most cap_marked, and under earlier piece i the first
     * moves' nodes mark_generated[i] and mark_expanded[i] */
    int mark;
    size_t nmarked, cap_marked;
    uint64_t *mark_generated, *mark_expanded;
} frontier;

/* How a piece ended. P_COVERED: finished, its nodes counted in a piece
 * before it carried over from a list split again (piece_state.span). */
enum { P_TODO, P_DONE, P_FOUND, P_ABORTED, P_STOPPED, P_COVERED };

typedef struct piece_state {
    int status;
    int next_bound, length;
    uint64_t expanded, generated;
    size_t span; /* P_DONE: 0, searched; else carried over, it and the span - 1 after it */
} piece_state;

static int frontier_push(frontier *fr, const np_board *b, int depth, int h, int state,
                         const uint8_t *path, bool goal)
{
    if (fr->n == fr->cap) {
        size_t ncap = fr->cap ? fr->cap * 2 : 256;
        task *v = realloc(fr->v, ncap * sizeof *v);
        if (!v)
            return NP_ENOMEM;
        fr->v = v;
        fr->cap = ncap;
    }
    task *tk = &fr->v[fr->n++];
    tk->board = *b;
    tk->depth = depth;
    tk->h = h;
    tk->state = state;
    tk->goal = goal;
    tk->before_generated = fr->generated;
    tk->before_expanded = fr->expanded;
    tk->earlier = fr->nmarked ? fr->nmarked - 1 : 0;
    memcpy(tk->path, path, (size_t)depth);
    return NP_OK;
}

static int collect_node(frontier *fr, search *s, int kind, np_board *b, int depth, int h, int state,
                        uint8_t *path);

/* Depth-first to fr->limit, collecting the nodes at that depth within the
 * bound: the same tree, order and counts as the serial search. A goal met on
 * the way ends the list (its piece is the goal itself). A node fr->mark moves
 * deep is counted as met, with the first moves' nodes under it. @return
 * NP_OK, or NP_ENOMEM; 1 when the goal was met; NP_EINVAL for more nodes
 * fr->mark deep than fr->cap_marked. */
static int collect(frontier *fr, search *s, int kind, np_board *b, int depth, int h, int state,
                   uint8_t *path)
{
    if (!fr->mark || depth != fr->mark || depth == fr->limit)
        return collect_node(fr, s, kind, b, depth, h, state, path);
    if (fr->nmarked == fr->cap_marked)
        return NP_EINVAL;
    const size_t i = fr->nmarked++;
    const uint64_t generated = fr->generated, expanded = fr->expanded;
    const int rc = collect_node(fr, s, kind, b, depth, h, state, path);
    fr->mark_generated[i] = fr->generated - generated;
    fr->mark_expanded[i] = fr->expanded - expanded;
    return rc;
}

static int collect_node(frontier *fr, search *s, int kind, np_board *b, int depth, int h, int state,
                        uint8_t *path)
{
    if (depth == fr->limit)
        return frontier_push(fr, b, depth, h, state, path, false);
    fr->expanded++;
    const int blank = b->blank;
    for (int d = 0; d < 4; d++) {
        const int ns = s->fsm[state][d];
        if (ns < 0)
            continue;
        int nb = s->g->nbr[blank][d];
        if (nb < 0)
            continue;
        fr->generated++;
        np_board c = *b;
        np_board_move(&c, s->g, d);
        search_set_board(s, &c);
        /* As the kernel does: the reflected sum only when the plain one does
         * not already prune the child, so that next_bound is the kernel's. */
        const bool reflect = kind == K_PDBR || (kind == K_PDBD && s->reflect);
        int ch = search_h(s, kind == K_PDBD ? K_PDB : kind == K_PDBR ? K_PDB : kind, &c);
        int f = s->gw * (depth + 1) + s->hw * ch;
        if (reflect && f <= s->bound) {
            ch = search_h(s, K_PDBR, &c);
            f = s->gw * (depth + 1) + s->hw * ch;
        }
        if (kind == K_PDBD && f <= s->bound && ch != 0) {
            f = search_dual(s, depth + 1, &ch);
            if (f > s->bound && depth + ch - 1 > s->bound) { /* the kernel's pathmax */
                if (depth + ch - 1 < fr->next_bound)
                    fr->next_bound = depth + ch - 1;
                if (f < fr->next_bound)
                    fr->next_bound = f;
                return NP_OK;
            }
        }
        if (f > s->bound) {
            if (f < fr->next_bound)
                fr->next_bound = f;
            continue;
        }
        path[depth] = (uint8_t)d;
        if (ch == 0) {
            int rc = frontier_push(fr, &c, depth + 1, 0, ns, path, true);
            return rc == NP_OK ? 1 : rc;
        }
        int rc = collect(fr, s, kind, &c, depth + 1, ch, ns, path);
        if (rc != NP_OK)
            return rc;
    }
    return NP_OK;
}

/* The list fr built from the root, `limit` moves deep (collect); fr's own
 * earlier pieces (fr->mark) are counted again. @return as collect. */
static int frontier_from_root(frontier *fr, search *s, int kind, const np_board *start, int h0,
                              int limit)
{
    uint8_t path[64];
    fr->n = 0;
    fr->nmarked = 0;
    fr->generated = fr->expanded = 0;
    fr->next_bound = INT_MAX;
    fr->limit = limit;
    np_board b = *start;
    return collect(fr, s, kind, &b, 0, h0, 0, path);
}

/* The list fr (fr->limit moves deep, no goal in it) taken one move deeper
 * without going back to the root: each piece's node expanded in turn, as
 * collect meets them one move deeper. The nodes fewer moves deep are the
 * same and met in the same order, so the pieces and their counts, the list's
 * counts, the next bound and the earlier pieces' counts (fr->mark) are those
 * of the list built from the root. Where a goal lies one move deeper, the
 * list ends there as that one does, with its counts; the nodes met past it
 * fewer moves deep go to *extra, and the next bound and earlier pieces'
 * counts keep theirs (unused: the iteration has a solution, and resplit
 * takes no list with a goal). @return NP_OK; 1 when the list ends at a
 * goal; NP_ENOMEM (fr as it was, but for the earlier pieces' counts). */
static int frontier_extend(frontier *fr, search *s, int kind, uint64_t *extra)
{
    frontier nf = *fr; /* the mark's fields and the next bound carry over */
    nf.v = NULL;
    nf.n = nf.cap = 0;
    nf.limit = fr->limit + 1;
    uint64_t generated = 0, expanded = 0; /* added under the pieces before */
    int rc = NP_OK;
    for (size_t i = 0; rc == NP_OK && i < fr->n; i++) {
        const task *tk = &fr->v[i];
        uint8_t path[64];
        memcpy(path, tk->path, (size_t)tk->depth);
        np_board b = tk->board;
        const uint64_t g0 = tk->before_generated + generated, e0 = tk->before_expanded + expanded;
        nf.generated = g0;
        nf.expanded = e0;
        nf.nmarked = fr->nmarked ? tk->earlier + 1 : 0; /* frontier_push reads it */
        rc = collect_node(&nf, s, kind, &b, tk->depth, tk->h, tk->state, path);
        if (rc < 0) {
            free(nf.v);
            return rc;
        }
        if (fr->nmarked) {
            fr->mark_generated[tk->earlier] += nf.generated - g0;
            fr->mark_expanded[tk->earlier] += nf.expanded - e0;
        }
        if (rc == 1) /* the goal, the list's last node: its counts are the list's */
            *extra += fr->generated - tk->before_generated;
        generated += nf.generated - g0;
        expanded += nf.expanded - e0;
    }
    if (rc == NP_OK) {
        nf.generated = fr->generated + generated;
        nf.expanded = fr->expanded + expanded;
        nf.nmarked = fr->nmarked;
    }
    free(fr->v);
    *fr = nf;
    return rc;
}

#ifdef NP_SELF_CHECK
/* (meson -Dself_check=true) The list fr, just extended (frontier_extend
 * returned rc), against the list collect builds from the root at its depth:
 * the same pieces with the same counts, the same totals, and without a goal
 * the same next bound and earlier pieces' counts. A difference is a bug:
 * say what differs and abort. Without the memory to check, it does not. */
static void frontier_self_check(const frontier *fr, int rc, search *proto, int kind,
                                const np_board *start, int h0)
{
    frontier ck = {.mark = fr->mark};
    uint64_t *marks = NULL;
    if (fr->mark) {
        ck.cap_marked = fr->cap_marked;
        marks = calloc(2 * (fr->cap_marked ? fr->cap_marked : 1), sizeof *marks);
        if (!marks)
            return; /* no memory to check with: the search goes on unchecked */
        ck.mark_generated = marks;
        ck.mark_expanded = marks + fr->cap_marked;
    }
    const int rc2 = frontier_from_root(&ck, proto, kind, start, h0, fr->limit);
    const char *what = NULL;
    if (rc2 == NP_ENOMEM) {
        free(ck.v);
        free(marks);
        return;
    }
    if (rc2 < 0)
        what = "the build from the root failed";
    else if (rc2 != rc)
        what = "whether a goal ends the list";
    else if (ck.n != fr->n)
        what = "the number of pieces";
    else if (ck.generated != fr->generated || ck.expanded != fr->expanded)
        what = "the list's counts";
    else if (rc == NP_OK && ck.next_bound != fr->next_bound)
        what = "the next bound";
    for (size_t i = 0; !what && i < ck.n; i++) {
        const task *x = &ck.v[i], *y = &fr->v[i];
        if (x->depth != y->depth || x->h != y->h || x->state != y->state || x->goal != y->goal ||
            x->earlier != y->earlier || memcmp(x->path, y->path, (size_t)x->depth) ||
            memcmp(&x->board, &y->board, sizeof x->board))
            what = "a piece";
        else if (x->before_generated != y->before_generated ||
                 x->before_expanded != y->before_expanded)
            what = "a piece's counts";
    }
    if (!what && rc == NP_OK && ck.nmarked != fr->nmarked)
        what = "the earlier pieces met";
    for (size_t i = 0; !what && rc == NP_OK && i < fr->nmarked; i++)
        if (ck.mark_generated[i] != fr->mark_generated[i] ||
            ck.mark_expanded[i] != fr->mark_expanded[i])
            what = "an earlier piece's counts";
    free(ck.v);
    free(marks);
    if (what) {
        fprintf(stderr,
                "npuzzle: self-check: a piece list extended to %d moves differs from the "
                "one built from the root in %s\n",
                fr->limit, what);
        abort();
    }
}
#endif

/* The pieces of the iteration at proto->bound, `depth` moves deep; depth 0:
 * the shallowest depth (below fr->mark) with at least `want` of them, or
 * the first one with no more of them than the depth above (the tree narrows
 * towards the bound: a deeper list would only move the iteration's work into
 * the serial first moves). The first depth tried is built from the root,
 * each one after by extending the one above (frontier_extend). */
static int frontier_build(frontier *fr, search *proto, int kind, const np_board *start, int h0,
                          int depth, size_t want, uint64_t *extra)
{
    int rc = NP_OK;
    size_t before = 0; /* the pieces one move shallower */
    for (int limit = depth ? depth : fr->mark + 1; limit <= 32; limit++) {
        if (before) {
            rc = frontier_extend(fr, proto, kind, extra);
#ifdef NP_SELF_CHECK
            if (rc >= 0)
                frontier_self_check(fr, rc, proto, kind, start, h0);
#endif
        } else {
            rc = frontier_from_root(fr, proto, kind, start, h0, limit);
        }
        if (rc != NP_OK || depth || fr->n >= want || fr->n == 0 || fr->n <= before)
            break;
        before = fr->n;
    }
    return rc < 0 ? rc : NP_OK;
}

/* Search the piece under task tk (piece `index`) on s, whose bound is set:
 * its nodes and next bound into q (a goal task has none); s->path and
 * s->length hold a solution. @return RUN (done), FOUND or STOPPED. */
static int task_search(search *s, const task *tk, size_t index, int kind, int weighted,
                       piece_state *q)
{
    memcpy(s->path, tk->path, (size_t)tk->depth);
    if (tk->goal) {
        s->length = tk->depth;
        return FOUND;
    }
    search_set_board(s, &tk->board);
    uint64_t e0 = s->expanded, g0 = s->generated;
    s->piece = index;
    s->next_bound = INT_MAX;
    s->outcome = RUN;
    int r = dfs_root(s, kind, weighted, tk->depth, tk->h, tk->state);
    q->expanded = s->expanded - e0;
    q->generated = s->generated - g0;
    q->next_bound = s->next_bound;
    return r;
}

/* The moves of a path as ULRD letters. */
static void path_letters(char *out, const uint8_t *path, int len)
{
    for (int i = 0; i < len; i++)
        out[i] = np_dir_char(path[i]);
    out[len] = 0;
}

/* What one iteration in pieces gives back. */
typedef struct iteration_out {
    uint64_t expanded, generated, extra; /* serial counts of this iteration; work beyond them */
    int next_bound;
    int found_len; /* >= 0: the solution in found_path */
    bool stopped;  /* a limit stopped it */
    uint8_t found_path[NP_MAX_PATH];
} iteration_out;

/* Tell the journal that piece i finished. */
static void journal_piece(const np_journal *j, const np_iteration *it, size_t i,
                          const piece_state *ps, const uint8_t *path)
{
    char moves[NP_MAX_PATH + 1];
    np_piece p = {.index = i,
                  .expanded = ps->expanded,
                  .generated = ps->generated,
                  .next_bound = ps->next_bound,
                  .length = ps->status == P_FOUND ? ps->length : -1,
                  .moves = NULL,
                  .span = ps->span};
    if (p.length >= 0) {
        path_letters(moves, path, p.length);
        p.moves = moves;
    }
    j->piece(j->ctx, it, &p);
}

/* The pieces of one iteration handed out by a runner (np_piece_runner): the
 * runner's thread alone calls next and done, while the iteration waits. */
struct np_piece_queue {
    search *proto;
    piece_state *ps;
    size_t n, next;
    size_t *best;
    iteration_out *out;
    const np_journal *journal;
    const np_iteration *it;
};

/* A limit or cancel of the search (its pieces reported so far; `now` on the
 * clock) halts the queue. @return whether it is halted. */
static bool queue_halted(np_piece_queue *q, double now)
{
    return shared_halted(q->proto->sh, now);
}

size_t np_piece_queue_next(np_piece_queue *q)
{
    shared *sh = q->proto->sh;
    queue_halted(q, np_clock());
    while (q->next < q->n && q->ps[q->next].status != P_TODO)
        q->next++;
    if (sh->halt || q->next >= q->n || q->next > sh->found_piece)
        return SIZE_MAX;
    return q->next++;
}

bool np_piece_queue_left(np_piece_queue *q, uint64_t *nodes, double *seconds)
{
    shared *sh = q->proto->sh;
    double now = np_clock();
    bool halted = queue_halted(q, now);
    *nodes = sh->max_nodes && !halted ? sh->max_nodes - sh->generated : 0;
    *seconds = sh->deadline > 0 && !halted ? sh->deadline - now : 0;
    return halted;
}

int np_piece_queue_done(np_piece_queue *q, const np_piece *p, bool stopped)
{
    /* Everything is checked before anything is taken in. */
    if (p->index >= q->n || p->index >= q->next || q->ps[p->index].status != P_TODO ||
        p->length > NP_MAX_PATH ||
        (p->length >= 0 && (!p->moves || strlen(p->moves) != (size_t)p->length)))
        return NP_EINVAL;
    uint8_t path[NP_MAX_PATH];
    for (int i = 0; i < p->length; i++) {
        int d = np_dir_from_char(p->moves[i]);
        if (d < 0)
            return NP_EINVAL;
        path[i] = (uint8_t)d;
    }
    shared *sh = q->proto->sh;
    piece_state *st = &q->ps[p->index];
    sh->generated += p->generated;
    st->expanded = p->expanded;
    st->generated = p->generated;
    if (stopped && p->index > sh->found_piece) {
        /* cut after a piece that holds a solution (np_piece_list_stop): the
         * serial search never gets here, its work is extra */
        st->status = P_ABORTED;
        return NP_OK;
    }
    if (stopped) { /* a limit or a cancel where it ran: the iteration stops */
        st->status = P_STOPPED;
        sh->halt = 1;
        return NP_OK;
    }
    st->next_bound = p->next_bound;
    st->length = p->length;
    st->status = p->length >= 0 ? P_FOUND : P_DONE;
    if (st->status == P_FOUND) {
        if (p->index < sh->found_piece)
            sh->found_piece = p->index;
        if (p->index < *q->best) {
            *q->best = p->index;
            memcpy(q->out->found_path, path, (size_t)p->length);
        }
    }
    if (q->journal && q->journal->piece)
        journal_piece(q->journal, q->it, p->index, st, path);
    return NP_OK;
}

/* The first moves' nodes the serial search has met on reaching piece r - 1
 * (r = 0: none; r = fr->n + 1: all of them, those after the last piece too). */
static uint64_t reach_generated(const frontier *fr, size_t r)
{
    return r == 0 ? 0 : r <= fr->n ? fr->v[r - 1].before_generated : fr->generated;
}

static uint64_t reach_expanded(const frontier *fr, size_t r)
{
    return r == 0 ? 0 : r <= fr->n ? fr->v[r - 1].before_expanded : fr->expanded;
}

/* Count the first moves' nodes up to reach `upto` (reach_generated) towards
 * the limits, those past *reach (shared by the threads, which may come out
 * of order: it only grows), and look at the limits. A goal met on the
 * limit's last node (`goal`, its count == max_nodes) stands, as in the
 * serial search. @return whether the search is halted. */
static bool frontier_count(shared *sh, const frontier *fr, size_t *reach, size_t upto, bool goal)
{
    size_t seen = __atomic_load_n(reach, __ATOMIC_RELAXED);
    while (
        seen < upto &&
        !__atomic_compare_exchange_n(reach, &seen, upto, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED))
        ;
    const uint64_t total = seen < upto
        ? __atomic_add_fetch(&sh->generated, reach_generated(fr, upto) - reach_generated(fr, seen),
                             __ATOMIC_RELAXED)
        : __atomic_load_n(&sh->generated, __ATOMIC_RELAXED);
    if (goal && total == sh->max_nodes)
        return false;
    return shared_halted(sh, np_clock());
}

/* Bring a thread's next look at the limits forward to where its nodes, with
 * the count of them all, would reach the node limit: the first moves
 * counted since its last look (frontier_count) leave it less room. */
static void limit_check_due(search *s)
{
    const shared *sh = s->sh;
    if (!sh->max_nodes)
        return;
    const uint64_t total = __atomic_load_n(&sh->generated, __ATOMIC_RELAXED);
    const uint64_t left = sh->max_nodes > total ? sh->max_nodes - total : 0;
    if (s->reported + left < s->next_check)
        s->next_check = s->reported + left;
}

/* How many pieces an iteration is asked to be cut into: 64 a thread, and for a
 * long iteration one for about `piece_nodes` of its nodes (0: the default),
 * so that a stop (a checkpointed run ended, a job's time up) loses little
 * and no piece outlasts the runs that resume it. An iteration's nodes are
 * guessed from all the iterations' before it (`before`): on the 15- and
 * 24-puzzle each generates 5 to 7 times the one before, so 4 to 6 times all
 * before it; 4 is taken. */
static size_t pieces_wanted(int threads, uint64_t before, uint64_t piece_nodes)
{
    const size_t most = (size_t)1 << 14; /* about 3 MB of tasks (2 to 3 times that built) */
    size_t want = (size_t)(threads > 1 ? threads : 1) * 64;
    const uint64_t guess = before / (piece_nodes ? piece_nodes : NP_PIECE_NODES_DEFAULT) * 4;
    if (guess > want)
        want = guess < most ? (size_t)guess : most;
    return want;
}

/* A resumed iteration's list `fr` (its finished pieces in *ps, none holding
 * a solution, none a goal) split again, deeper, into at least `want` pieces:
 * a list cut by an earlier run with fewer threads or before the iteration
 * was known to be long. Under each earlier piece the new ones are its
 * subtree's, in the same order. A finished piece (with those it covers) is
 * carried over as the first of its new pieces, standing for them all
 * (span): their nodes, less those now in the first moves, are its own; so
 * the serial counts stay the same, and a journal that keeps any of the new
 * list's pieces keeps a state to resume from. The list thrown away counts
 * as *extra. @return whether it was split (*fr and *ps replaced); not when a
 * goal lies in the new first moves or the finished counts do not fit (the
 * list is kept then, as it is). The finished pieces' nodes now in the first
 * moves, counted already towards the limits, are taken off the search's
 * count, since the first moves are counted again as pieces start. */
static bool resplit(frontier *fr, piece_state **ps, search *proto, int kind, const np_board *start,
                    int h0, size_t want, uint64_t *extra)
{
    uint64_t moved = 0;
    frontier nf = {.mark = fr->limit, .cap_marked = fr->n};
    nf.mark_generated = malloc(fr->n * sizeof *nf.mark_generated);
    nf.mark_expanded = malloc(fr->n * sizeof *nf.mark_expanded);
    uint64_t thrown = 0;
    bool ok = nf.mark_generated && nf.mark_expanded && fr->limit < 32 &&
        frontier_build(&nf, proto, kind, start, h0, 0, want, &thrown) == NP_OK &&
        nf.nmarked == fr->n && nf.n > fr->n && !nf.v[nf.n - 1].goal;
    piece_state *nps = ok ? calloc(nf.n, sizeof *nps) : NULL;
    ok = ok && nps;
    for (size_t e = 0, t = 0; ok && e < fr->n;) {
        const piece_state *q = &(*ps)[e];
        const size_t len = q->status == P_DONE && q->span ? q->span : 1; /* earlier pieces */
        uint64_t generated = 0, expanded = 0; /* theirs in the new first moves */
        for (size_t k = e; k < e + len && k < fr->n; k++) {
            generated += nf.mark_generated[k];
            expanded += nf.mark_expanded[k];
        }
        const size_t first = t;
        while (t < nf.n && nf.v[t].earlier < e + len)
            t++;
        e += len;
        if (q->status == P_TODO)
            continue;
        if (q->status != P_DONE || e > fr->n || q->generated < generated ||
            q->expanded < expanded ||
            (first == t && (q->generated != generated || q->expanded != expanded))) {
            ok = false; /* (P_COVERED pieces are skipped with their carrier) */
            break;
        }
        moved += generated;
        for (size_t k = first; k < t; k++) {
            nps[k].status = k == first ? P_DONE : P_COVERED;
            nps[k].length = -1;
            nps[k].next_bound = k == first ? q->next_bound : INT_MAX;
            nps[k].generated = k == first ? q->generated - generated : 0;
            nps[k].expanded = k == first ? q->expanded - expanded : 0;
            nps[k].span = k == first ? t - first : 0;
        }
    }
    free(nf.mark_generated);
    free(nf.mark_expanded);
    nf.mark = 0;
    nf.mark_generated = nf.mark_expanded = NULL;
    if (!ok) {
        free(nf.v);
        free(nps);
        return false;
    }
    *extra += thrown + fr->generated;
    proto->sh->generated -= moved;
    free(fr->v);
    free(*ps);
    *fr = nf;
    *ps = nps;
    return true;
}

/* A stopped piece that had generated this many times the nodes asked of a
 * piece (np_search_opts.piece_nodes) or more has its iteration cut again at
 * the stop (recut_after_stop): by that many times more pieces, NP_RECUT_BY at
 * most at once (a later stop cuts again if need be), up to NP_RECUT_MOST
 * pieces asked for. The first depth with that many may hold two to three
 * times as many, and the list a move shallower is kept while it is extended
 * (its array grown by doubling): with tasks of 176 bytes (64-bit), some 100
 * MB at most, and a checkpoint of up to some 10 MB once they are all
 * searched (a line of some 40 bytes a finished piece). */
#define NP_RECUT_AT 4
#define NP_RECUT_BY 4
#define NP_RECUT_MOST ((size_t)1 << 16)

/* After a stop in iteration `it` without a solution, for a journal that keeps
 * the state a stop leaves (recut_at_stop): a piece the stop cut short is
 * searched again from its start by the run that resumes the list, so a piece
 * longer than a run would never end (piece sizes are heavy-tailed: on the
 * 24-puzzle one piece can hold a hundred times the mean). When a stopped
 * piece had generated NP_RECUT_AT times the size asked for, the list is cut
 * again, deeper (resplit, its finished pieces carried over), and the journal
 * is told: the iteration with its new list (journal->iteration with depth and
 * npieces set), then the pieces carried over. The run that resumes it
 * searches that piece's subtree in smaller pieces, each kept as it ends; a
 * later stop cuts again if need be. The serial counts stay the same
 * (resplit); this run's are summed already, and the new list's first moves
 * and the nodes thrown away building it are work beyond them (out->extra). */
static void recut_after_stop(frontier *fr, piece_state **ps, search *proto, int kind,
                             const np_board *start, int h0, uint64_t piece_nodes, np_iteration *it,
                             const np_journal *journal, iteration_out *out)
{
    const uint64_t size = piece_nodes ? piece_nodes : NP_PIECE_NODES_DEFAULT;
    uint64_t longest = 0;
    for (size_t i = 0; i < fr->n; i++)
        if ((*ps)[i].status == P_STOPPED && (*ps)[i].generated > longest)
            longest = (*ps)[i].generated;
    const uint64_t times = longest / size;
    if (times < NP_RECUT_AT || fr->n >= NP_RECUT_MOST)
        return;
    const size_t by = times < NP_RECUT_BY ? (size_t)times : NP_RECUT_BY;
    const size_t want = fr->n < NP_RECUT_MOST / by ? fr->n * by : NP_RECUT_MOST;
    for (size_t i = 0; i < fr->n; i++)
        if ((*ps)[i].status == P_STOPPED)
            (*ps)[i] = (piece_state){.status = P_TODO};
    /* resplit takes the finished pieces' nodes now in the first moves off the
     * search's count, for a run that goes on: this one stops */
    const uint64_t generated = proto->sh->generated;
    uint64_t thrown = 0;
    const bool split = resplit(fr, ps, proto, kind, start, h0, want, &thrown);
    proto->sh->generated = generated;
    if (!split)
        return;
    out->extra += thrown + fr->generated;
    it->depth = fr->limit;
    it->npieces = fr->n;
    journal->iteration(journal->ctx, it);
    for (size_t i = 0; i < fr->n; i++)
        if ((*ps)[i].status == P_DONE)
            journal_piece(journal, it, i, &(*ps)[i], NULL);
}

/* One IDA* iteration as its ordered list of pieces, handed to the threads one
 * at a time (their sizes differ wildly). The answer and counts are the serial
 * search's: when a piece finds a solution, the pieces before it still finish
 * (one may hold the solution the serial search meets first), those after it
 * stop, and their work is counted apart (extra). `it` gives the bound, the
 * depth (0: choose) and the finished pieces to skip. */
static int piece_iteration(search *proto, int kind, int weighted, const np_board *start, int h0,
                           int threads, search **workers, const np_search_opts *opts,
                           np_iteration *it, iteration_out *out)
{
    const np_journal *journal = opts->journal;
    const np_piece_runner *runner = opts->runner;
    const size_t want = pieces_wanted(threads, it->generated, opts->piece_nodes);
    frontier fr = {0};
    out->extra = 0;
    out->found_len = -1;
    out->stopped = false;
    const bool resumed = it->depth != 0;
    int rc = frontier_build(&fr, proto, kind, start, h0, it->depth, want, &out->extra);
    piece_state *ps = rc == NP_OK ? calloc(fr.n ? fr.n : 1, sizeof *ps) : NULL;
    if (rc == NP_OK && !ps)
        rc = NP_ENOMEM;
    if (rc == NP_OK && it->depth && fr.n != it->npieces)
        rc = NP_EINVAL; /* a resumed state that does not fit this board and bound */
    if (rc != NP_OK) {
        free(fr.v);
        free(ps);
        return rc;
    }
    it->depth = fr.limit;
    it->npieces = fr.n;
    for (size_t k = 0; k < it->nfinished; k++) {
        const np_piece *p = &it->finished[k];
        bool bad = p->index >= fr.n || p->length > NP_MAX_PATH ||
            (p->length >= 0 && (!p->moves || strlen(p->moves) != (size_t)p->length)) ||
            (p->span && (p->length >= 0 || p->span > fr.n - p->index));
        for (size_t i = p->index; !bad && i < p->index + np_piece_count(p); i++)
            bad = ps[i].status != P_TODO;
        if (bad) {
            free(fr.v);
            free(ps);
            return NP_EINVAL;
        }
        piece_state *q = &ps[p->index];
        q->status = p->length >= 0 ? P_FOUND : P_DONE;
        q->expanded = p->expanded;
        q->generated = p->generated;
        q->next_bound = p->next_bound;
        q->length = p->length;
        q->span = p->span;
        for (size_t i = p->index + 1; i < p->index + p->span; i++)
            ps[i] = (piece_state){.status = P_COVERED, .length = -1, .next_bound = INT_MAX};
    }
    size_t best = SIZE_MAX; /* the first piece holding a solution */
    for (size_t k = 0; k < it->nfinished; k++) {
        const np_piece *p = &it->finished[k];
        if (p->length >= 0 && p->index < best) {
            best = p->index;
            np_board b = *start;
            if (np_board_apply_moves(&b, proto->g, p->moves, NULL) != NP_OK ||
                !np_board_is_goal(&b, proto->g)) {
                free(fr.v);
                free(ps);
                return NP_EINVAL;
            }
            for (int i = 0; i < p->length; i++)
                out->found_path[i] = (uint8_t)np_dir_from_char(p->moves[i]);
        }
    }
    /* A resumed list of fewer pieces than this run would cut: split again. */
    const bool split = resumed && best == SIZE_MAX && fr.n && fr.n < want && !fr.v[fr.n - 1].goal &&
        resplit(&fr, &ps, proto, kind, start, h0, want, &out->extra);
    if (split) {
        it->depth = fr.limit;
        it->npieces = fr.n;
    }
    __atomic_store_n(&proto->sh->found_piece, best, __ATOMIC_RELAXED);
    it->nfinished = 0;
    it->finished = NULL;
    /* the finished pieces carried over to the new list, journaled as such */
    for (size_t i = 0; split && journal && journal->piece && i < fr.n; i++)
        if (ps[i].status == P_DONE)
            journal_piece(journal, it, i, &ps[i], NULL);
    /* The first moves count towards --max-nodes as well. Our threads count
     * them as the serial search meets them: those before a piece when it
     * starts (frontier_count), the rest after the last, so that pieces
     * searched in order stop where the serial search does (counted
     * all at once, the moves after the solution's piece stopped the search
     * before it). The caller's runner gets them all at once. */
    size_t reach = 0; /* how far the first moves are counted (reach_generated) */
    if (runner || fr.n == 0)
        frontier_count(proto->sh, &fr, &reach, fr.n + 1, fr.n && fr.v[fr.n - 1].goal);
    if (runner && fr.n > 0) {
        /* Handed out by the caller (other processes); the summing below is
         * the same. An iteration without pieces has nothing to hand out. */
        np_piece_queue q = {.proto = proto,
                            .ps = ps,
                            .n = fr.n,
                            .best = &best,
                            .out = out,
                            .journal = journal,
                            .it = it};
        rc = runner->run(runner->ctx, it, &q);
        if (rc != NP_OK) {
            free(fr.v);
            free(ps);
            return rc;
        }
    }
    if (runner)
        threads = 0; /* no threads of ours: the loop below has nothing to do */
    for (int i = 0; i < threads; i++) {
        workers[i]->bound = proto->bound;
        workers[i]->outcome = RUN;
    }
    if (threads && journal && journal->running) {
        proto->sh->running = journal;
        proto->sh->running_it = it;
        const double every = journal->running_every;
        proto->sh->running_ms = every > 0 && every < 86400 ? (uint64_t)(every * 1000.0) + 1
            : every > 0                                    ? 86400000
                                                           : 1000;
        proto->sh->running_due = (uint64_t)(np_clock() * 1000.0) + proto->sh->running_ms;
    }
#pragma omp parallel num_threads(threads ? threads : 1) if (threads)
    {
        search *s = workers[omp_get_thread_num()];
#pragma omp for schedule(dynamic, 1)
        for (size_t i = 0; i < (threads ? fr.n : 0); i++) {
            if (ps[i].status != P_TODO || __atomic_load_n(&proto->sh->halt, __ATOMIC_RELAXED) ||
                i > __atomic_load_n(&proto->sh->found_piece, __ATOMIC_RELAXED))
                continue;
            if (frontier_count(proto->sh, &fr, &reach, i + 1, fr.v[i].goal))
                continue; /* a limit reached by the first moves before it */
            limit_check_due(s);
            piece_state *q = &ps[i];
            int r = task_search(s, &fr.v[i], i, kind, weighted, q);
            if (r == FOUND) {
                q->status = P_FOUND;
                q->length = s->length;
                atomic_lower(&proto->sh->found_piece, i);
            } else if (r == RUN) {
                q->status = P_DONE;
            } else if (__atomic_load_n(&proto->sh->halt, __ATOMIC_RELAXED)) {
                q->status = P_STOPPED; /* a limit, a cancel */
            } else if (i > __atomic_load_n(&proto->sh->found_piece, __ATOMIC_RELAXED)) {
                q->status = P_ABORTED; /* after a solution: the serial search never gets here */
            } else {
                /* The path cap (NP_MAX_PATH): the serial search would stop
                 * here too, so the iteration stops. */
                q->status = P_STOPPED;
                __atomic_store_n(&proto->sh->halt, 1, __ATOMIC_RELAXED);
            }
#pragma omp critical(np_ida_found)
            {
                if (q->status == P_FOUND && i < best) {
                    best = i;
                    memcpy(out->found_path, s->path, (size_t)s->length);
                }
                if (journal && journal->piece && (q->status == P_DONE || q->status == P_FOUND))
                    journal_piece(journal, it, i, q, s->path);
            }
        }
    }
    proto->sh->running_it = NULL;
    const bool halted = __atomic_load_n(&proto->sh->halt, __ATOMIC_RELAXED);
    if (best == SIZE_MAX && !halted)
        frontier_count(proto->sh, &fr, &reach, fr.n + 1, false);
    /* Sum the pieces in serial order: all of them, or up to the solution; a
     * limit's, the first moves as far as they were counted (on one thread,
     * the serial search's count where it stopped). */
    size_t end = best == SIZE_MAX ? fr.n : best + 1;
    out->expanded = best == SIZE_MAX ? reach_expanded(&fr, reach) : fr.v[best].before_expanded;
    out->generated = best == SIZE_MAX ? reach_generated(&fr, reach) : fr.v[best].before_generated;
    out->extra += fr.generated - out->generated;
    out->next_bound = fr.next_bound;
    for (size_t i = 0; i < fr.n; i++) {
        const piece_state *q = &ps[i];
        if (i < end && q->status != P_TODO && q->status != P_ABORTED) {
            out->expanded += q->expanded;
            out->generated += q->generated;
            if (q->next_bound < out->next_bound)
                out->next_bound = q->next_bound;
        } else {
            out->extra += q->generated;
        }
        if (i < end && (q->status == P_STOPPED || q->status == P_TODO))
            out->stopped = true;
    }
    /* Halted without a solution: stopped, even when no piece was left (the
     * first moves were the whole iteration). */
    if (best == SIZE_MAX && halted)
        out->stopped = true;
    /* A solution stands only when every piece before it finished: a piece a
     * limit cut may hold the one the serial search meets first. Else the
     * iteration is stopped, and a resumed run finishes those pieces. */
    if (best != SIZE_MAX && !out->stopped)
        out->found_len = ps[best].length;
    if (out->stopped && best == SIZE_MAX && halted && journal && journal->recut_at_stop &&
        journal->piece && journal->iteration)
        recut_after_stop(&fr, &ps, proto, kind, start, h0, opts->piece_nodes, it, journal, out);
    free(fr.v);
    free(ps);
    return NP_OK;
}

/* The search of `start` as opts ask for, its board set and its tables built
 * (not its limits): *kind its heuristic. @return NP_OK, NP_EINVAL,
 * NP_EUNSUPPORTED or NP_ENOMEM, as np_ida_solve. */
static int search_open(search **out, int *kind_out, const np_board *start, const np_geom *g,
                       const np_search_opts *opts)
{
    *out = NULL;
    if (!np_geom_row_major(g) || !np_board_valid(start, g))
        return NP_EINVAL;
    if ((opts->weight != 0 && !(opts->weight >= 1.0 && opts->weight <= NP_MAX_WEIGHT)) ||
        opts->prune < NP_PRUNE_DEFAULT || opts->prune > NP_PRUNE_FSM12)
        return NP_EINVAL;
    int kind;
    switch (opts->heuristic) {
    case NP_H_MD: kind = K_MD; break;
    case NP_H_LC: kind = K_LC; break;
    case NP_H_PDB:
        if (!opts->pdbs || opts->pdbs->g.rows != g->rows || opts->pdbs->g.cols != g->cols ||
            opts->pdbs->g.goal != g->goal)
            return NP_EUNSUPPORTED;
        kind = opts->no_reflect || !g->square ? K_PDB : K_PDBR;
        if (opts->dual && !(opts->weight > 1.0))
            kind = K_PDBD;
        break;
    default: return NP_EINVAL;
    }
    search *s = search_alloc();
    if (!s)
        return NP_ENOMEM;
    int rc = search_tables(s, g, kind, kind >= K_PDB ? opts->pdbs : NULL);
    if (rc != NP_OK) {
        search_free_tables(s);
        free(s);
        return rc;
    }
    if (!opts->generic_kernel && g->rows == g->cols && (g->rows == 4 || g->rows == 5))
        s->side = g->rows;
    const np__fsm *fsm = np__fsm_parent();
    if (opts->prune == NP_PRUNE_FSM)
        fsm = np__fsm_duplicates();
    else if (opts->prune == NP_PRUNE_FSM12)
        fsm = &np__fsm_table_old;
    s->fsm = fsm->next;
    s->machine = fsm != np__fsm_parent();
    s->reflect = !opts->no_reflect && g->square;
    s->dual = kind == K_PDBD;
    int weighted = opts->weight > 1.0;
    s->gw = weighted ? 1000 : 1;
    /* thousandths, rounded down (a weight no larger: the length bound holds) */
    s->hw = weighted ? (int)np_weight_milli(opts->weight) : 1;
    search_set_board(s, start);
    *kind_out = kind;
    *out = s;
    return NP_OK;
}

/* An iteration's list of pieces, built once for many np_piece_list_search
 * calls: the search set up for the board (read-only from then on) and the
 * list. */
struct np_piece_list {
    search *proto;
    int kind, weighted;
    frontier fr;
    np_search_opts opts;
    size_t stop_from;   /* pieces from this index on stop (atomic; SIZE_MAX: none) */
    uint64_t max_nodes; /* each search's node limit (atomic; 0: none) */
    uint64_t deadline;  /* the searches' deadline, np_clock() seconds as double bits
                         * (atomic; 0.0: none) */
};

static uint64_t double_bits(double x)
{
    uint64_t u;
    memcpy(&u, &x, sizeof u);
    return u;
}

static double bits_double(uint64_t u)
{
    double x;
    memcpy(&x, &u, sizeof x);
    return x;
}

int np_piece_list_open(np_piece_list **out, const np_board *start, const np_geom *g,
                       const np_search_opts *opts, const np_iteration *it)
{
    np_search_opts defaults = {0};
    *out = NULL;
    if (!opts)
        opts = &defaults;
    if (it->depth < 1 || it->depth > 32 || it->npieces == 0)
        return NP_EINVAL;
    np_piece_list *pl = calloc(1, sizeof *pl);
    if (!pl)
        return NP_ENOMEM;
    int rc = search_open(&pl->proto, &pl->kind, start, g, opts);
    if (rc != NP_OK) {
        free(pl);
        return rc;
    }
    pl->weighted = opts->weight > 1.0;
    pl->opts = *opts;
    pl->stop_from = SIZE_MAX;
    np_piece_list_limit(pl, opts->max_nodes, opts->timeout);
    search *s = pl->proto;
    s->bound = it->bound;
    uint64_t extra = 0;
    int h0 = search_h(s, pl->kind, start);
    rc = frontier_build(&pl->fr, s, pl->kind, start, h0, it->depth, 0, &extra);
    if (rc == NP_OK && (pl->fr.limit != it->depth || pl->fr.n != it->npieces))
        rc = NP_EINVAL; /* another board, bound or search than the list's */
    if (rc != NP_OK) {
        np_piece_list_close(pl);
        return rc;
    }
    *out = pl;
    return NP_OK;
}

int np_piece_list_search(const np_piece_list *pl, size_t index, np_piece *out,
                         char moves[NP_MAX_PATH + 1], bool *stopped)
{
    memset(out, 0, sizeof *out);
    out->index = index;
    out->length = -1;
    out->next_bound = INT_MAX;
    moves[0] = 0;
    *stopped = false;
    if (index >= pl->fr.n)
        return NP_EINVAL;
    if (index >= __atomic_load_n(&pl->stop_from, __ATOMIC_RELAXED)) {
        *stopped = true; /* told to stop before it started */
        return NP_OK;
    }
    search *s = search_alloc();
    if (!s)
        return NP_ENOMEM;
    search_clone(s, pl->proto); /* each call its own state: calls may run at once */
    shared sh = {0};
    sh.max_nodes = __atomic_load_n(&pl->max_nodes, __ATOMIC_RELAXED);
    sh.deadline = bits_double(__atomic_load_n(&pl->deadline, __ATOMIC_RELAXED));
    sh.cancel = pl->opts.cancel;
    sh.stop_from = &pl->stop_from;
    sh.found_piece = SIZE_MAX;
    s->sh = &sh;
    s->expanded = s->generated = s->reported = 0;
    s->next_check = CHECK_EVERY;
    if (sh.max_nodes && sh.max_nodes < s->next_check)
        s->next_check = sh.max_nodes;
    piece_state q = {.next_bound = INT_MAX};
    int r = task_search(s, &pl->fr.v[index], index, pl->kind, pl->weighted, &q);
    out->expanded = q.expanded;
    out->generated = q.generated;
    out->next_bound = q.next_bound;
    if (r == FOUND) {
        out->length = s->length;
        path_letters(moves, s->path, s->length);
        out->moves = moves;
    } else if (r != RUN) {
        *stopped = true;
    }
    free(s);
    return NP_OK;
}

void np_piece_list_stop(np_piece_list *pl, size_t from)
{
    atomic_lower(&pl->stop_from, from);
}

void np_piece_list_limit(np_piece_list *pl, uint64_t max_nodes, double seconds)
{
    __atomic_store_n(&pl->max_nodes, max_nodes, __ATOMIC_RELAXED);
    __atomic_store_n(&pl->deadline, double_bits(seconds > 0 ? np_clock() + seconds : 0.0),
                     __ATOMIC_RELAXED);
}

void np_piece_list_close(np_piece_list *pl)
{
    if (!pl)
        return;
    free(pl->fr.v);
    search_free_tables(pl->proto);
    free(pl->proto);
    free(pl);
}

int np_ida_piece(np_piece *out, char moves[NP_MAX_PATH + 1], bool *stopped, const np_board *start,
                 const np_geom *g, const np_search_opts *opts, const np_iteration *it, size_t index)
{
    memset(out, 0, sizeof *out);
    out->index = index;
    out->length = -1;
    out->next_bound = INT_MAX;
    moves[0] = 0;
    *stopped = false;
    if (index >= it->npieces)
        return NP_EINVAL;
    np_piece_list *pl;
    int rc = np_piece_list_open(&pl, start, g, opts, it);
    if (rc != NP_OK)
        return rc;
    rc = np_piece_list_search(pl, index, out, moves, stopped);
    np_piece_list_close(pl);
    return rc;
}

int np_ida_solve(np_result *res, const np_board *start, const np_geom *g,
                 const np_search_opts *opts)
{
    np_search_opts defaults = {0};
    if (!opts)
        opts = &defaults;
    memset(res, 0, sizeof *res);
    res->length = -1;
    double t0 = np_clock();
    search *s;
    int kind;
    int rc = search_open(&s, &kind, start, g, opts);
    if (rc != NP_OK)
        return rc;
    res->h0 = search_h(s, kind, start);
    if (!np_board_solvable(start, g)) {
        res->status = NP_STATUS_UNSOLVABLE;
        res->seconds = np_clock() - t0;
        search_free_tables(s);
        free(s);
        return NP_OK;
    }
    shared sh = {0};
    sh.max_nodes = opts->max_nodes;
    sh.deadline = opts->timeout > 0 ? t0 + opts->timeout : 0;
    sh.cancel = opts->cancel;
    sh.found_piece = SIZE_MAX;
    s->sh = &sh;
    int weighted = opts->weight > 1.0;
    s->next_check = CHECK_EVERY;
    if (sh.max_nodes && sh.max_nodes < s->next_check)
        s->next_check = sh.max_nodes;

    /* Split into pieces with several threads, and whenever a journal or a
     * resumed state asks for pieces; else the plain serial search (the same
     * counts, without building the pieces). */
    int threads = opts->threads > 1 ? opts->threads : 1;
    bool pieces =
        threads > 1 || (opts->journal && opts->journal->piece) || opts->resume || opts->runner;
    search **workers = NULL;
    rc = NP_OK;
    /* the search copies of the threads; with a runner threads only sizes the
     * pieces' list and one copy stands by */
    int copies = opts->runner ? 1 : threads;
    if (pieces) {
        /* NOLINTNEXTLINE(bugprone-sizeof-expression): pointers, sizeof(search *) is meant */
        workers = calloc((size_t)copies, sizeof *workers);
        for (int i = 0; workers && i < copies; i++) {
            workers[i] = search_alloc();
            if (!workers[i]) {
                for (int j = 0; j < i; j++)
                    free(workers[j]);
                free(workers);
                workers = NULL;
                break;
            }
            /* cppcheck-suppress nullPointerRedundantCheck ; NULL only on the break above */
            search_clone(workers[i], s);
        }
        if (!workers && (opts->journal || opts->resume || opts->runner))
            rc = NP_ENOMEM;
        else if (!workers)
            pieces = false, threads = copies = 1; /* no memory for the copies: search serially */
    }

    int h0 = res->h0;
    np_iteration it = {.bound = s->hw * h0};
    if (opts->resume) {
        it = *opts->resume;
        /* A state from elsewhere (a checkpoint file) is checked before it is
         * trusted: pieces are at most 32 moves deep, finished ones need a list
         * and a depth to belong to. */
        if (it.bound < s->hw * h0 || it.depth < 0 || it.depth > 32 || (it.depth && !it.npieces) ||
            (it.nfinished && (!it.finished || !it.depth)))
            rc = NP_EINVAL;
        /* --max-nodes counts the work done before the resume too. */
        sh.generated = it.generated;
        for (size_t k = 0; rc == NP_OK && k < it.nfinished; k++)
            sh.generated += it.finished[k].generated;
        if (sh.max_nodes) {
            uint64_t left = sh.max_nodes > sh.generated ? sh.max_nodes - sh.generated : 1;
            if (left < s->next_check)
                s->next_check = left;
            for (int i = 0; workers && i < copies; i++)
                workers[i]->next_check = s->next_check;
        }
    }
    if (h0 == 0) {
        s->length = 0;
        s->outcome = FOUND;
    }
    s->bound = it.bound;
    uint64_t extra = it.extra;
    iteration_out *io = pieces && rc == NP_OK ? malloc(sizeof *io) : NULL;
    if (pieces && rc == NP_OK && !io)
        rc = NP_ENOMEM;
    while (rc == NP_OK && s->outcome == RUN) {
        /* A cancel, or a deadline passed, stops the search before an
         * iteration too: a small board's whole search can generate fewer
         * nodes than CHECK_EVERY and never come to a check in the kernel. */
        if (shared_halted(&sh, np_clock())) {
            s->outcome = STOPPED;
            break;
        }
        s->bound = it.bound;
        s->next_bound = INT_MAX;
        if (pieces) {
            search_set_board(s, start);
            rc = piece_iteration(s, kind, weighted, start, h0, threads, workers, opts, &it, io);
            if (rc != NP_OK)
                break;
            it.expanded += io->expanded;
            it.generated += io->generated;
            extra += io->extra;
            it.extra = extra;
            if (io->found_len >= 0) {
                s->length = io->found_len;
                memcpy(s->path, io->found_path, (size_t)io->found_len);
                s->outcome = FOUND;
                break;
            }
            if (io->stopped)
                s->outcome = STOPPED;
            s->next_bound = io->next_bound;
        } else {
            dfs_root(s, kind, weighted, 0, h0, 0);
            it.expanded = s->expanded;
            it.generated = s->generated;
        }
        if (s->outcome != RUN || s->next_bound == INT_MAX)
            break;
        it.bound = s->next_bound;
        it.depth = 0;
        it.npieces = 0;
        if (opts->journal && opts->journal->iteration)
            opts->journal->iteration(opts->journal->ctx, &it);
    }
    free(io);
    res->expanded = pieces ? it.expanded : s->expanded;
    res->generated = pieces ? it.generated : s->generated;
    res->extra = extra;
    if (workers) {
        for (int i = 0; i < copies; i++)
            free(workers[i]);
        free(workers);
    }
    res->bound = s->bound / s->gw;
    res->seconds = np_clock() - t0;
    /* --max-nodes N: a board is solved only within N nodes as the serial
     * search counts them, so that the answer is the same whatever the
     * threads (the serial search can meet the goal among the children of a
     * node it entered under N). */
    if (rc == NP_OK && s->outcome == FOUND && sh.max_nodes && res->generated > sh.max_nodes)
        s->outcome = STOPPED;
    if (rc == NP_OK && s->outcome == FOUND) {
        path_letters(res->moves, s->path, s->length);
        res->length = s->length;
        res->status = NP_STATUS_SOLVED;
        /* Never print a path that has not been replayed to the goal. */
        if (np_solution_check(start, g, res->moves) != NP_OK) {
            res->status = NP_STATUS_ERROR;
            res->error = NP_EINVAL;
            res->length = -1;
            res->moves[0] = 0;
        }
    } else if (rc == NP_OK) {
        res->status = NP_STATUS_LIMIT;
        res->error = NP_ELIMIT;
    }
    search_free_tables(s);
    free(s);
    return rc;
}
