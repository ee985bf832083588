/* ida.h - IDA* (and weighted IDA*) on one board: in-place moves, limits, statistics, path. */
#ifndef NPUZZLE_IDA_H
#define NPUZZLE_IDA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "npuzzle/board.h"
#include "npuzzle/heuristic.h"

#ifdef __cplusplus
extern "C" {
#endif

/*! Longest move sequence a result can hold. */
#define NP_MAX_PATH 1000

typedef enum np_status {
    NP_STATUS_SOLVED = 0,     /*!< a solution was found (optimal unless weight > 1) */
    NP_STATUS_UNSOLVABLE = 1, /*!< answered by parity, no search */
    NP_STATUS_LIMIT = 2,      /*!< node, time or memory limit reached first */
    NP_STATUS_ERROR = 3       /*!< the board could not be searched (see error) */
} np_status;

/*! @return "solved", "unsolvable", "limit" or "error" (static; "?" for any
 *  other value). Cannot fail. */
const char *np_status_name(np_status s);

/*! One piece of an IDA* iteration. An iteration is cut into an ordered list of
 *  pieces: the nodes `depth` moves from the start whose f is within the bound,
 *  in the order the serial search meets them; a piece is the search under one
 *  of them (or, when the list ends at a goal met within those first moves, that
 *  goal). Pieces are the unit of work: threads take them in order, a journal
 *  records them, and a resumed search skips the ones it is given. */
typedef struct np_piece {
    size_t index;                 /*!< its place in the iteration's list */
    uint64_t expanded, generated; /*!< the piece's own nodes (up to its solution, if any) */
    int next_bound;               /*!< least f above the bound it met; INT_MAX: none */
    int length;                   /*!< >= 0: it holds a solution of this many moves */
    const char *moves;            /*!< that solution from the start (ULRD), when length >= 0 */
    size_t span;                  /*!< 0: searched. Else carried over from a list split again
                                   *   (np_search_opts.piece_nodes): it stands for itself and
                                   *   the span - 1 pieces after it, whose nodes its counts
                                   *   hold; it holds no solution */
} np_piece;

/*! How many pieces of its list a finished piece stands for: 1, or its span. */
static inline size_t np_piece_count(const np_piece *p)
{
    return p->span ? p->span : 1;
}

/*! Where a search stands: one iteration, its pieces, and the counts of the
 *  iterations before it. A journal is shown one after every finished piece; a
 *  search given one as `resume` continues from it. */
typedef struct np_iteration {
    int bound;                    /*!< the f bound being searched (in thousandths when weighted) */
    int depth;                    /*!< how many moves deep its pieces start; 0: not chosen yet */
    size_t npieces;               /*!< how many pieces it has (when depth > 0) */
    uint64_t expanded, generated; /*!< serial counts of the iterations before it */
    uint64_t extra;               /*!< work done beyond the serial count so far */
    size_t nfinished;             /*!< resume: pieces already finished, */
    const np_piece *finished;     /*!< these (in any order; not owned) */
} np_iteration;

/*! Callbacks that see a search's progress, for checkpoints and progress
 *  reports. Calls are serialised (never two at once for one search) but come
 *  from the search's threads; what they are shown lives only for the call.
 *  A journal with a `piece` callback makes even a one-thread search go by
 *  pieces; one with only `iteration` leaves the search as it is. */
typedef struct np_journal {
    /*! A piece of iteration `it` finished (it->nfinished is 0 here); may be NULL. */
    void (*piece)(void *ctx, const np_iteration *it, const np_piece *p);
    /*! An iteration finished without a solution: `next` is the next one to
     *  search (depth 0) with the counts of all before it. Or, with
     *  `recut_at_stop`, the stopped iteration's list cut again (depth and
     *  npieces set); may be NULL. */
    void (*iteration)(void *ctx, const np_iteration *next);
    void *ctx;
    /*! While iteration `it` is searched by pieces on this call's threads (not
     *  by a runner's), about every `running_every` seconds (1 when 0; a day at
     *  most), pieces
     *  ending or not: `generated` counts the nodes so far, of the iterations
     *  before and of this one's pieces finished or still running (each
     *  thread's to within 65,536), work beyond the serial count included, and
     *  a resumed state's (its iterations' and finished pieces', as
     *  opts->max_nodes counts them); may be NULL. */
    void (*running)(void *ctx, const np_iteration *it, uint64_t generated);
    double running_every;
    /*! The journal keeps the state a stop leaves, for a run that resumes it (a
     *  checkpoint). A piece in flight at a stop is searched again from its
     *  start then, so with `recut_at_stop` (and `piece` and `iteration`), a
     *  stop that cut a piece short after 4 times the nodes asked of a piece
     *  (np_search_opts.piece_nodes) or more cuts the stopped iteration's list
     *  again, deeper, into up to 4 times as many pieces (65,536 asked for at
     *  most), and tells it: `iteration` with the new list (depth and npieces
     *  set), then the finished pieces carried over to it through `piece`
     *  (their span set). The run that resumes it searches that piece's subtree
     *  as smaller pieces; the counts do not change. False: `iteration` only
     *  ever gets depth 0. */
    bool recut_at_stop;
} np_journal;

/*! The pieces of one iteration, handed out by a runner (opaque; valid during
 *  the runner's call only). */
typedef struct np_piece_queue np_piece_queue;

/*! Pieces searched elsewhere (other processes: npuzzle-mpi). With a runner,
 *  np_ida_solve builds each iteration's list of pieces (opts->threads * 64 of
 *  them at least, and more for a long iteration, as for threads:
 *  np_search_opts.piece_nodes) and calls `run` instead of searching them:
 *  run takes pieces with np_piece_queue_next(), has each searched (by
 *  np_ida_piece() with the same board and options) and hands every result to
 *  np_piece_queue_done(), from its own thread only. It returns when no piece
 *  it took is still out: NP_OK, or an np_error that np_ida_solve returns. The
 *  answer and counts are summed as for threads: the serial search's. */
typedef struct np_piece_runner {
    int (*run)(void *ctx, const np_iteration *it, np_piece_queue *q);
    void *ctx;
} np_piece_runner;

/*! The next piece to search, in order; SIZE_MAX when none is left to hand out
 *  (all taken, the rest after a piece holding a solution, or a limit or cancel
 *  of the search: its options' max_nodes, counting the pieces reported, its
 *  timeout and cancel). */
size_t np_piece_queue_next(np_piece_queue *q);

/*! What is left of the search's limits (max_nodes, counting the pieces
 *  reported, and timeout): *nodes and *seconds receive them, 0 for a limit
 *  not set. @return true when a limit or cancel has stopped the search: hand
 *  nothing more out, and stop what is out (np_piece_list_stop(list, 0)). */
bool np_piece_queue_left(np_piece_queue *q, uint64_t *nodes, double *seconds);

/*! A piece's result, as np_ida_piece() gave it (p->moves borrowed for the
 *  call); `stopped`: a limit or cancel cut it (its counts are then extra
 *  work, and the iteration stops: the search ends with NP_STATUS_LIMIT), or
 *  np_piece_list_stop() did, after a piece reported holding a solution (then
 *  it is only extra work: the serial search never reaches it).
 *  @return NP_OK; NP_EINVAL for a piece not handed out or already reported,
 *          or moves that do not match the length. */
int np_piece_queue_done(np_piece_queue *q, const np_piece *p, bool stopped);

/*! Which move sequences IDA* cuts. */
typedef enum np_prune {
    NP_PRUNE_DEFAULT = 0, /*!< NP_PRUNE_PARENT, the papers' search (`npuzzle solve`
                           *   asks for NP_PRUNE_FSM unless told otherwise) */
    NP_PRUNE_PARENT = 1,  /*!< only the move undoing the last one (Korf's papers) */
    NP_PRUNE_FSM = 2,     /*!< also every sequence of up to 14 moves that an equivalent
                           *   shorter or earlier one replaces (a finite-state machine,
                           *   Taylor & Korf 1993): fewer nodes, the same optimal lengths */
    NP_PRUNE_FSM12 = 3    /*!< the same machine over sequences of up to 12 moves, that of
                           *   earlier versions (their node counts; about 8 % more nodes
                           *   on the 24-puzzle) */
} np_prune;

/*! The largest weight a weighted search takes (np_search_opts.weight). */
#define NP_MAX_WEIGHT 100.0

/*! A weight W (np_search_opts.weight, > 1) as weighted IDA* takes it: in
 *  thousandths, rounded down (the 1e-6 keeps 1.16 at 1160). Cannot fail. */
static inline long np_weight_milli(double weight)
{
    return (long)(weight * 1000.0 + 1e-6);
}

/*! The nodes of a piece aimed at by default (np_search_opts.piece_nodes):
 *  about half a minute of one core on the 24-puzzle. */
#define NP_PIECE_NODES_DEFAULT ((uint64_t)1 << 30)

/*! Search options; zero-initialise, then set what you need. A zero field means
 *  its default. The struct is read-only during a search and may be shared by
 *  threads. */
typedef struct np_search_opts {
    np_hkind heuristic;            /*!< NP_H_MD (default), NP_H_LC or NP_H_PDB */
    const np_pdbset *pdbs;         /*!< NP_H_PDB: the mapped tables (not owned) */
    bool no_reflect;               /*!< NP_H_PDB: skip the reflected (transposed) lookup */
    bool dual;                     /*!< NP_H_PDB, optimal search: also the dual lookups
                                    *   (np_h_pdb_dual), with bidirectional pathmax */
    double weight;                 /*!< f = g + weight*h; 0 or 1 = optimal search; at most
                                        NP_MAX_WEIGHT. Taken to a thousandth (IDA*) or a
                                        tenth (A*), rounded down: lengths stay within
                                        weight times the optimal one */
    uint64_t max_nodes;            /*!< stop after this many generated nodes (0 = none); IDA*
                                        solves a board only when its serial search needs at
                                        most this many (exactly then on one thread; several
                                        threads on one board count all their nodes, work the
                                        serial search would not do included, and can stop
                                        sooner, depending on their timing); A* only when it
                                        needs at most this many (its count may end up to 3
                                        past it, the children of the last node it expands) */
    double timeout;                /*!< stop after this many seconds (0 = none) */
    int threads;                   /*!< threads for one board (0 or 1 = serial) */
    uint64_t max_memory;           /*!< A*: bytes it may use (0 = 3/4 of MemAvailable) */
    const volatile int *cancel;    /*!< if not NULL, the search stops when *cancel != 0 */
    np_prune prune;                /*!< duplicate pruning (default NP_PRUNE_DEFAULT) */
    const np_journal *journal;     /*!< if not NULL, told of every finished piece and iteration */
    const np_iteration *resume;    /*!< if not NULL, continue from this state (np_ida_solve
                                 *   checks that it fits the board: NP_EINVAL if not) */
    const np_piece_runner *runner; /*!< if not NULL, pieces are searched elsewhere (see
                                    *   np_piece_runner) */
    uint64_t piece_nodes;          /*!< split by pieces (threads > 1, a journal, a runner): an
                                    *   iteration into about one piece for this many of its
                                    *   nodes, guessed from the iterations before it, and at
                                    *   least 64 a thread (fewer where the tree stops
                                    *   widening first); a resumed iteration cut into fewer
                                    *   is split again, deeper (its finished pieces kept), so
                                    *   that no piece outlasts the runs that resume it, and
                                    *   so is one stopped (np_journal.recut_at_stop)
                                    *   (0: NP_PIECE_NODES_DEFAULT) */
    bool generic_kernel;           /*!< use the general kernel even on 4x4 and 5x5 boards, which
                                *   have kernels with compile-time geometry (for tests and
                                *   benchmarks: both walk the same tree) */
} np_search_opts;

/*! The outcome of solving one board. */
typedef struct np_result {
    np_status status;
    int error;                   /*!< NP_OK; NP_ELIMIT with NP_STATUS_LIMIT; the np_error
                                  *   when status is NP_STATUS_ERROR */
    int length;                  /*!< moves in the solution, -1 when none */
    int bound;                   /*!< the last f bound searched (useful for NP_STATUS_LIMIT) */
    int h0;                      /*!< the heuristic value of the start board */
    uint64_t expanded;           /*!< nodes whose children were generated */
    uint64_t generated;          /*!< children produced by a move (root not counted); with
                                  *   several threads, the count the serial search gives */
    uint64_t extra;              /*!< generated beyond that by a split search: the pieces
                                  *   after the one holding the solution and the first moves
                                  *   past it, a resumed iteration's list split again */
    double seconds;              /*!< wall time of this board's search */
    char moves[NP_MAX_PATH + 1]; /*!< blank directions, "ULRD" letters, NUL-terminated */
} np_result;

/*! Solve `start` (must be valid for `g`) with IDA*. Unsolvable boards are
 *  answered by parity without search. The solution is replayed on a copy of
 *  the start and checked to reach the goal before this returns.
 *  Children are generated in the order up, left, right, down (the blank's
 *  moves), never undoing the previous move; every child is counted as
 *  generated, so Manhattan-distance counts reproduce Korf (1985).
 *  Ownership: `res` is the caller's and always written: reset first (counts
 *  0, length -1, moves empty), then filled. On an error return its counts may
 *  be partial and res->status is not set (it reads 0, NP_STATUS_SOLVED):
 *  check the return value first. `opts` may be NULL (defaults); it and what
 *  it points to (pdbs, journal, resume, resume->finished and their moves)
 *  are borrowed for the call; the journal's callbacks run inside it.
 *  A node, time or cancel limit, or a path reaching NP_MAX_PATH moves, is not
 *  an error: NP_OK with res->status NP_STATUS_LIMIT (res->error NP_ELIMIT).
 *  NP_OK with NP_STATUS_ERROR (res->error NP_EINVAL) means a found path failed
 *  its replay (a bug).
 *  @return NP_OK (see res->status); NP_EINVAL for a board not valid for `g`,
 *          a labelled geometry (board.h), a weight other than 0 outside
 *          1..NP_MAX_WEIGHT (NaN too), a
 *          heuristic or prune value out of range, a resumed state that does
 *          not fit the board, or PDB step tables that do not fit the board;
 *          NP_EUNSUPPORTED for NP_H_PDB without opts->pdbs or with tables for
 *          another board size or goal; NP_ENOMEM (with several threads and no
 *          journal or resume, no memory for the threads' copies only makes
 *          the search serial).
 *  With opts->threads > 1 the iterations are split into pieces (np_piece)
 *  and the moves, expanded and generated counts are those of the serial
 *  search whatever the timing; res->extra is the work done beyond them.
 *  Thread-safe: many searches may run at once on shared `g` and `opts`. */
int np_ida_solve(np_result *res, const np_board *start, const np_geom *g,
                 const np_search_opts *opts);

/*! Search one piece of an iteration: piece `index` of the list that the
 *  iteration `it` (its bound, depth and npieces) gives for `start` with these
 *  options, as np_ida_solve's threads do (opts->threads, journal, resume and
 *  runner are not used; max_nodes, timeout and cancel apply to this piece).
 *  `moves` (the caller's) receives a solution when the piece holds one, and
 *  out->moves then points to it.
 *  @return NP_OK, with *stopped when a limit or cancel cut the piece; the
 *          errors of np_ida_solve, and NP_EINVAL when `it` does not fit the
 *          board (another bound, depth or number of pieces). */
int np_ida_piece(np_piece *out, char moves[NP_MAX_PATH + 1], bool *stopped, const np_board *start,
                 const np_geom *g, const np_search_opts *opts, const np_iteration *it,
                 size_t index);

/*! An iteration's list of pieces, built once for many searches of its pieces
 *  (np_ida_piece builds it at every call). Opaque. */
typedef struct np_piece_list np_piece_list;

/*! Build the list of pieces of iteration `it` for `start`, as np_ida_piece.
 *  `start`, `g` and what `opts` points to (the tables, a cancel flag) are
 *  borrowed until np_piece_list_close(); the list owns the rest. Each search
 *  of a piece stops after opts->max_nodes generated nodes, and every search
 *  at opts->timeout seconds after this call (np_piece_list_limit changes
 *  both).
 *  @return NP_OK with *out set (NULL on error); the errors of np_ida_piece. */
int np_piece_list_open(np_piece_list **out, const np_board *start, const np_geom *g,
                       const np_search_opts *opts, const np_iteration *it);

/*! Search piece `index` of the list, as np_ida_piece. Thread-safe: several
 *  threads may search pieces of one list at once.
 *  @return NP_OK (see *stopped); NP_EINVAL for an index beyond the list;
 *          NP_ENOMEM. */
int np_piece_list_search(const np_piece_list *pl, size_t index, np_piece *out,
                         char moves[NP_MAX_PATH + 1], bool *stopped);

/*! Stop the searches of pieces `from` and after, running or to come: they
 *  return with *stopped set (a piece before `from` holds a solution, so the
 *  serial search never reaches them; or 0: a limit of the whole search).
 *  `from` only ever lowers. Thread-safe, also while pieces are searched. */
void np_piece_list_stop(np_piece_list *pl, size_t from);

/*! The limits of the searches that start from now on: each stops after
 *  `max_nodes` generated nodes, and all at `seconds` from now (0: no limit).
 *  Thread-safe; searches already running keep the limits they started with. */
void np_piece_list_limit(np_piece_list *pl, uint64_t max_nodes, double seconds);

/*! Free a list (NULL is fine). */
void np_piece_list_close(np_piece_list *pl);

/*! Check a solution independently of the search: apply `moves` (as
 *  np_board_apply_moves) to a copy of `start` and test that the goal is
 *  reached; `start` is not changed.
 *  @return NP_OK, or NP_EINVAL for an illegal letter or move or a final
 *          position that is not the goal. */
int np_solution_check(const np_board *start, const np_geom *g, const char *moves);

#ifdef __cplusplus
}
#endif

#endif
