/* board.h - R x C board geometry, goal conventions, parsing, printing and solvability.
 *
 * This module owns the shape of a board and the numbering of its cells. Cells
 * are numbered row-major from 0 (cell c is in row c / cols, column c % cols:
 * np_geom.row and np_geom.col, and np_cell_row/np_cell_col for kernels that
 * know the width at compile time); tile 0 is the blank. The blank moves; a
 * move is named by the direction the blank travels (U, L, R, D).
 *
 * Two numberings. Boards (np_board) and every geometry that np_geom_init()
 * fills number cells row-major. PDB tables index placements by cell *labels*
 * (np_geom.label: the rows as a snake, see rank.h), and the PDB generator and
 * packer work on a geometry renumbered by label (np_geom_labelled()). Such a
 * geometry says so (numbering == NP_CELLS_LABELLED); it describes the same
 * board, but boards do not match it. Boards and searches want the row-major
 * geometry: the functions that label one or search with one refuse a
 * labelled geometry with NP_EINVAL (np_geom_labelled, np_pdb_generate and
 * np_pdb_gen_estimate_for, np_pdb_write, np_pdb_histogram, np_pdbset_open,
 * np_ida_solve, np_astar_solve), so labels are never applied twice and no
 * board is searched in the other numbering. The small board functions below
 * (moves, parity, goal tests) do not check it: pass them row-major geometries.
 *
 * Goal conventions:
 *   NP_GOAL_BLANK_FIRST  Korf's: cell c holds tile c (blank top-left). Default.
 *   NP_GOAL_BLANK_LAST   cell c holds tile c+1, blank bottom-right.
 */
#ifndef NPUZZLE_BOARD_H
#define NPUZZLE_BOARD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "npuzzle/rng.h"

#ifdef __cplusplus
extern "C" {
#endif

#define NP_MIN_SIDE 2
#define NP_MAX_SIDE 8
#define NP_MAX_CELLS (NP_MAX_SIDE * NP_MAX_SIDE)

typedef enum np_goal { NP_GOAL_BLANK_FIRST = 0, NP_GOAL_BLANK_LAST = 1 } np_goal;

/*! How a geometry numbers its cells (see the top of this file). */
typedef enum np_numbering {
    NP_CELLS_ROW_MAJOR = 0, /*!< np_geom_init(): the numbering of boards */
    NP_CELLS_LABELLED = 1   /*!< np_geom_labelled(): cell c is the cell labelled c */
} np_numbering;

/*! Directions the blank moves, in Korf's 1985 order (up, left, right, down).
 *  The numbering makes the opposite of d equal to 3 - d. */
typedef enum np_dir { NP_UP = 0, NP_LEFT = 1, NP_RIGHT = 2, NP_DOWN = 3 } np_dir;

#define NP_DIR_OPPOSITE(d) (3 - (d))
#define NP_NO_DIR 4

/*! The letter of a direction: "ULRD"[d], or '?' for a value outside 0..3.
 *  Cannot fail. */
char np_dir_char(int dir);
/*! @return the direction for a letter (U, L, R, D, either case), or -1 for
 *  any other character (not an np_error). Cannot fail. */
int np_dir_from_char(char c);

/*! Geometry of one board shape and goal convention: move tables, goal layout,
 *  cell distances and the transpose (mirror) map. A transparent value type,
 *  filled by np_geom_init(); read-only afterwards and shareable among threads. */
typedef struct np_geom {
    int rows, cols, cells;
    np_goal goal;
    np_numbering numbering;                       /*!< NP_CELLS_ROW_MAJOR unless labelled */
    uint8_t row[NP_MAX_CELLS], col[NP_MAX_CELLS]; /*!< row and column of cell c */
    int8_t nbr[NP_MAX_CELLS][4];      /*!< cell the blank reaches moving in dir d, or -1 */
    uint8_t home[NP_MAX_CELLS];       /*!< goal cell of tile t (home[0] = blank's goal cell) */
    uint8_t goal_tiles[NP_MAX_CELLS]; /*!< tile at cell c in the goal */
    uint8_t dist[NP_MAX_CELLS][NP_MAX_CELLS]; /*!< Manhattan distance between two cells */
    bool square;                              /*!< rows == cols: the mirror maps below are valid */
    uint8_t mirror_cell[NP_MAX_CELLS];        /*!< transpose of cell c (identity if not square) */
    uint8_t
        mirror_tile[NP_MAX_CELLS]; /*!< relabelling: tile whose home is the transpose of t's home */
    uint8_t mirror_dir[4];         /*!< direction d seen on the transposed board */
    uint8_t label[NP_MAX_CELLS];   /*!< number of cell c in a PDB's index (rank.h) */
} np_geom;

/*! Fill `g` for a rows x cols board (NP_MIN_SIDE..NP_MAX_SIDE each) and a goal.
 *  `g` is the caller's; nothing is allocated.
 *  @return NP_OK, or NP_EINVAL for an unsupported size or goal (g untouched). */
int np_geom_init(np_geom *g, int rows, int cols, np_goal goal);

/*! `out` = `g` with every cell c renamed g->label[c]: neighbours, homes, goal,
 *  distances, rows, columns and mirror; its own labels are the identity and
 *  its numbering NP_CELLS_LABELLED. PDBs number cells by label (rank.h): the
 *  generator and the packer work on this geometry, and anything that ranks a
 *  placement for a lookup ranks its cells' labels. `out` is the caller's and
 *  must not be `g`.
 *  @return NP_OK, or NP_EINVAL when `g` is already labelled (out untouched). */
int np_geom_labelled(const np_geom *g, np_geom *out);

/*! @return true when `g` numbers its cells as boards do (row-major). Cannot fail. */
static inline bool np_geom_row_major(const np_geom *g)
{
    return g->numbering == NP_CELLS_ROW_MAJOR;
}

/*! Row and column of cell c on a board `cols` wide (row-major numbering), for
 *  code that knows the width at compile time; others read np_geom.row/col.
 *  np_cell_row and np_cell_col cannot fail (c >= 0, cols > 0). */
static inline int np_cell_row(int c, int cols)
{
    return (int)((unsigned)c / (unsigned)cols); /* cells are not negative: no sign fix-up */
}

static inline int np_cell_col(int c, int cols)
{
    return (int)((unsigned)c % (unsigned)cols);
}

/*! The cell in row r, column k of a board `cols` wide. Cannot fail. */
static inline int np_cell_at(int r, int k, int cols)
{
    return r * cols + k;
}

/*! The cell the blank reaches from cell c moving in direction d (an np_dir)
 *  on a rows x cols board, or -1 off the board (np_geom.nbr holds these; -1
 *  is not an np_error). Cannot fail. */
static inline int np_cell_neighbour(int c, int d, int rows, int cols)
{
    switch (d) {
    case NP_UP: return c >= cols ? c - cols : -1;
    case NP_LEFT: return c % cols != 0 ? c - 1 : -1;
    case NP_RIGHT: return c % cols != cols - 1 ? c + 1 : -1;
    default: return c < (rows - 1) * cols ? c + cols : -1;
    }
}

/*! Parse "blank-first" / "blank-last" (exact, case-sensitive; `name` not NULL).
 *  @return NP_OK, or NP_EINVAL for any other name (*out untouched). */
int np_goal_parse(np_goal *out, const char *name);
/*! @return "blank-first" or "blank-last" (static; "blank-first" for any value
 *  but NP_GOAL_BLANK_LAST). Cannot fail. */
const char *np_goal_name(np_goal goal);

/*! A board position: a small value type. tiles[c] is the tile at cell c. */
typedef struct np_board {
    uint8_t rows, cols;
    uint8_t blank; /*!< cell of the blank (tiles[blank] == 0) */
    uint8_t tiles[NP_MAX_CELLS];
} np_board;

/*! What a trailing comment may say about a board. */
typedef struct np_board_meta {
    char id[64]; /*!< from `id=NAME` (1 to 63 bytes of UTF-8); empty when absent */
    int opt;     /*!< from `opt=N`; -1 when absent */
} np_board_meta;

/*! Parse one input line: the board's integers in row-major order separated by
 *  spaces, tabs or commas; `#` starts a comment which may hold `id=NAME`,
 *  `opt=N` and `size=RxC` (other words in it are ignored; an empty, over-long or
 *  non-UTF-8 NAME, an N that is not a move count, and a size whose sides are
 *  not NP_MIN_SIDE..NP_MAX_SIDE are errors, as is a word given twice). `line`
 *  (NUL-terminated) is only read.
 *  @param rows,cols the expected size, or 0,0 (either 0) to take the line's
 *         size=RxC, else to infer a square size from the count of integers
 *         (4 -> 2x2, 9 -> 3x3, 16 -> 4x4, ...). A size given that differs from
 *         the line's size= is an error (NP_EPARSE). A size given is not checked
 *         against NP_MIN_SIDE..NP_MAX_SIDE, only against 0..NP_MAX_CELLS each (a
 *         negative one is NP_EINVAL).
 *  @param meta    may be NULL. Reset first (id empty, opt -1), then filled from
 *         the comment, which is read after the fields when each is an integer
 *         (and there are at most NP_MAX_CELLS), before the count and the
 *         tiles are checked: it may hold the comment's id and opt even when 0
 *         or NP_EPARSE is returned. On a line of comment alone, an id or opt
 *         that would be an error is none: 0, meta reset, err empty.
 *  @param err     may be NULL; emptied first, then receives a one-line message
 *         naming the field when the line is bad.
 *  @return 1 when a board was read into `out` (`out` is written only then),
 *          0 when the line holds no board (empty or comment only),
 *          NP_EPARSE when malformed (message in err), NP_EINVAL for a size out
 *          of range. Thread-safe. */
int np_board_parse(np_board *out, np_board_meta *meta, const char *line, int rows, int cols,
                   char *err, size_t errlen);

/*! Write the board's tiles separated by single spaces into the caller's buf
 *  (NUL-terminated, truncated to buflen; buf may be NULL with buflen 0 to
 *  measure). Cannot fail. @return the length it needed, NUL excluded (like
 *  snprintf). */
int np_board_format(char *buf, size_t buflen, const np_board *b);

/*! Set `b` to the goal of `g`. Cannot fail. */
void np_board_goal(np_board *b, const np_geom *g);

/*! @return true when the tiles of `b` are a permutation of 0..cells-1, its
 *  size matches `g` and tiles[blank] is 0. Cannot fail (false is the answer,
 *  not an error). */
bool np_board_valid(const np_board *b, const np_geom *g);

/*! @return true when `b` is the goal of `g` (its tiles are compared; its size
 *  and blank field are not). Cannot fail. */
bool np_board_is_goal(const np_board *b, const np_geom *g);

/*! Solvability without search: a board can reach the goal iff the parity of
 *  the permutation (blank included) relative to the goal equals the parity of
 *  the blank's Manhattan distance to its goal cell. For odd widths this is the
 *  plain inversion count rule; for even widths it is inversions + blank row.
 *  `b` must be valid. Cannot fail. */
bool np_board_solvable(const np_board *b, const np_geom *g);

/*! Sum over tiles of the Manhattan distance to their goal cells (blank
 *  excluded). Cannot fail. */
int np_board_manhattan(const np_board *b, const np_geom *g);

/*! Move the blank one step in direction `dir`.
 *  @return NP_OK, or NP_EINVAL when `dir` is not 0..3 or the move leaves the
 *  board (b untouched). */
int np_board_move(np_board *b, const np_geom *g, int dir);

/*! Apply a move string (letters U L R D in either case; white space and commas
 *  ignored) to `b`. `moves` is NUL-terminated; `bad_index` may be NULL.
 *  @return NP_OK, or NP_EINVAL at the first illegal letter or move (b is then
 *  left at the position before it, the moves before it applied; *bad_index,
 *  if not NULL, gets its index in `moves`; it is not written on success). */
int np_board_apply_moves(np_board *b, const np_geom *g, const char *moves, size_t *bad_index);

/*! A uniformly random solvable board of `g` (row-major): the tiles are
 *  shuffled (Fisher-Yates with np_rng_below), and when the result is in the
 *  other parity class the tiles of the first two cells not holding the blank
 *  are swapped. That swap pairs each unsolvable arrangement with exactly one
 *  solvable one of the same blank cell, so every solvable board has the same
 *  probability, 2 / cells!. The same seeded generator gives the same boards.
 *  `rng` is the caller's and advances. Cannot fail. */
void np_board_random(np_board *out, const np_geom *g, np_rng *rng);

/*! The transposed, relabelled board (square boards only): reflecting `b`
 *  through the main diagonal and renaming each tile by mirror_tile. The mirror
 *  of the goal is the goal, and distances are preserved. `out` may be `b`.
 *  Cannot fail. */
void np_board_mirror(np_board *out, const np_board *b, const np_geom *g);

#ifdef __cplusplus
}
#endif

#endif
