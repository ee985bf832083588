/* board.c - board geometry, parsing, printing, solvability and moves. */
#include "npuzzle/board.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "npuzzle/error.h"
#include "error_internal.h"
#include "np_utf8.h"

static const char dir_chars[4] = {'U', 'L', 'R', 'D'};

char np_dir_char(int dir)
{
    return (dir >= 0 && dir < 4) ? dir_chars[dir] : '?';
}

int np_dir_from_char(char c)
{
    switch (toupper((unsigned char)c)) {
    case 'U': return NP_UP;
    case 'L': return NP_LEFT;
    case 'R': return NP_RIGHT;
    case 'D': return NP_DOWN;
    default: return -1;
    }
}

int np_geom_init(np_geom *g, int rows, int cols, np_goal goal)
{
    if (rows < NP_MIN_SIDE || rows > NP_MAX_SIDE || cols < NP_MIN_SIDE || cols > NP_MAX_SIDE)
        return NP_EINVAL;
    if (goal != NP_GOAL_BLANK_FIRST && goal != NP_GOAL_BLANK_LAST)
        return NP_EINVAL;
    memset(g, 0, sizeof *g);
    g->rows = rows;
    g->cols = cols;
    g->cells = rows * cols;
    g->goal = goal;
    int n = g->cells;
    for (int c = 0; c < n; c++) {
        int r = np_cell_row(c, cols), k = np_cell_col(c, cols);
        g->row[c] = (uint8_t)r;
        g->col[c] = (uint8_t)k;
        for (int d = 0; d < 4; d++)
            g->nbr[c][d] = (int8_t)np_cell_neighbour(c, d, rows, cols);
        g->goal_tiles[c] = (uint8_t)(goal == NP_GOAL_BLANK_FIRST ? c : (c + 1) % n);
        /* Labels run along the rows as a snake: left to right on even rows,
         * right to left on odd ones. A vertical step at a row's turning end
         * then passes no cell, and the others pass 1, 3, ... cells instead
         * of always cols - 1, so fewer steps change a placement's order
         * (rank.h) and move its entry far away. */
        g->label[c] = (uint8_t)np_cell_at(r, r % 2 == 0 ? k : cols - 1 - k, cols);
    }
    for (int c = 0; c < n; c++)
        g->home[g->goal_tiles[c]] = (uint8_t)c;
    for (int a = 0; a < n; a++)
        for (int b = 0; b < n; b++)
            g->dist[a][b] = (uint8_t)(abs(g->row[a] - g->row[b]) + abs(g->col[a] - g->col[b]));
    g->square = rows == cols;
    for (int c = 0; c < n; c++)
        g->mirror_cell[c] = (uint8_t)(g->square ? np_cell_at(g->col[c], g->row[c], cols) : c);
    for (int t = 0; t < n; t++)
        g->mirror_tile[t] = g->goal_tiles[g->mirror_cell[g->home[t]]];
    if (g->square) {
        g->mirror_dir[NP_UP] = NP_LEFT;
        g->mirror_dir[NP_LEFT] = NP_UP;
        g->mirror_dir[NP_RIGHT] = NP_DOWN;
        g->mirror_dir[NP_DOWN] = NP_RIGHT;
    } else {
        for (int d = 0; d < 4; d++)
            g->mirror_dir[d] = (uint8_t)d;
    }
    return NP_OK;
}

int np_geom_labelled(const np_geom *g, np_geom *out)
{
    if (!np_geom_row_major(g))
        return NP_EINVAL;
    const uint8_t *lab = g->label;
    memset(out, 0, sizeof *out);
    out->numbering = NP_CELLS_LABELLED;
    out->rows = g->rows;
    out->cols = g->cols;
    out->cells = g->cells;
    out->goal = g->goal;
    out->square = g->square;
    memcpy(out->mirror_tile, g->mirror_tile, sizeof out->mirror_tile);
    memcpy(out->mirror_dir, g->mirror_dir, sizeof out->mirror_dir);
    int n = g->cells;
    for (int c = 0; c < n; c++) {
        for (int d = 0; d < 4; d++)
            out->nbr[lab[c]][d] = (int8_t)(g->nbr[c][d] < 0 ? -1 : lab[g->nbr[c][d]]);
        out->goal_tiles[lab[c]] = g->goal_tiles[c];
        out->row[lab[c]] = g->row[c];
        out->col[lab[c]] = g->col[c];
        out->mirror_cell[lab[c]] = lab[g->mirror_cell[c]];
        out->label[c] = (uint8_t)c;
        for (int b = 0; b < n; b++)
            out->dist[lab[c]][lab[b]] = g->dist[c][b];
    }
    for (int t = 0; t < n; t++)
        out->home[t] = lab[g->home[t]];
    return NP_OK;
}

int np_goal_parse(np_goal *out, const char *name)
{
    if (strcmp(name, "blank-first") == 0) {
        *out = NP_GOAL_BLANK_FIRST;
        return NP_OK;
    }
    if (strcmp(name, "blank-last") == 0) {
        *out = NP_GOAL_BLANK_LAST;
        return NP_OK;
    }
    return NP_EINVAL;
}

const char *np_goal_name(np_goal goal)
{
    return goal == NP_GOAL_BLANK_LAST ? "blank-last" : "blank-first";
}

/* Up to 20 bytes of tok for an error message, a control byte as \xHH so that
 * the message shows what the line holds, and "..." when tok is longer.
 * @return buf. */
static const char *shown(char *buf, size_t size, const char *tok, size_t len)
{
    size_t o = 0, i = 0;
    for (; i < len && i < 20 && o + 5 < size; i++) {
        const unsigned char ch = (unsigned char)tok[i];
        if (ch < 0x20 || ch == 0x7f)
            o += (size_t)snprintf(buf + o, size - o, "\\x%02x", ch);
        else
            buf[o++] = (char)ch;
    }
    if (i < len && o + 4 <= size) /* cut short: say so */
        o += (size_t)snprintf(buf + o, size - o, "...");
    buf[o] = 0;
    return buf;
}

/* A side of size=RxC: 1 or 2 digits at *s, NP_MIN_SIDE..NP_MAX_SIDE, moved past.
 * @return the side, or 0. */
static int parse_side(const char **s, const char *end)
{
    int v = 0, n = 0;
    while (*s < end && n < 2 && isdigit((unsigned char)**s)) {
        v = v * 10 + (**s - '0');
        (*s)++;
        n++;
    }
    return n && v >= NP_MIN_SIDE && v <= NP_MAX_SIDE ? v : 0;
}

/* Read `key=VALUE` words out of a comment. Unknown words are ignored so that
 * free text may follow a board; a malformed opt=, id= or size= is an error,
 * not a silent skip. size=RxC sets *rows and *cols (left as they are when
 * absent). */
static int parse_comment(np_board_meta *meta, const char *s, int *rows, int *cols, char *err,
                         size_t errlen)
{
    bool have_opt = false, have_id = false, have_size = false;
    char b[96];
    while (*s) {
        while (*s && (isspace((unsigned char)*s) || *s == ','))
            s++;
        const char *w = s;
        while (*s && !isspace((unsigned char)*s) && *s != ',')
            s++;
        size_t wl = (size_t)(s - w);
        if (wl >= 4 && strncmp(w, "opt=", 4) == 0) {
            if (have_opt)
                return np__fail(NP_EPARSE, err, errlen, "field opt: given twice");
            have_opt = true;
            char num[24];
            size_t nl = wl - 4;
            bool digits = nl > 0 && nl < sizeof num;
            for (size_t i = 0; digits && i < nl; i++)
                digits = isdigit((unsigned char)w[4 + i]) != 0;
            if (!digits)
                return np__fail(NP_EPARSE, err, errlen, "field opt: '%s' is not a move count",
                                shown(b, sizeof b, w + 4, nl));
            memcpy(num, w + 4, nl);
            num[nl] = 0;
            char *end;
            errno = 0;
            long v = strtol(num, &end, 10);
            if (end == num || *end || errno || v < 0 || v > 100000)
                return np__fail(NP_EPARSE, err, errlen, "field opt: '%s' is not a move count", num);
            if (meta)
                meta->opt = (int)v;
        } else if (wl >= 5 && strncmp(w, "size=", 5) == 0) {
            /* A board's size on its own line: a 2x8 board has as many
             * tiles as a 4x4 one, and a non-square board needs it. */
            if (have_size)
                return np__fail(NP_EPARSE, err, errlen, "field size: given twice");
            have_size = true;
            const char *p = w + 5;
            const int r = parse_side(&p, s);
            int c = 0;
            if (r && p < s && (*p == 'x' || *p == 'X')) {
                p++;
                c = parse_side(&p, s);
            }
            if (!c || p != s)
                return np__fail(NP_EPARSE, err, errlen,
                                "field size: '%s' is not RxC with %d..%d each side",
                                shown(b, sizeof b, w + 5, wl - 5), NP_MIN_SIDE, NP_MAX_SIDE);
            *rows = r;
            *cols = c;
        } else if (wl >= 3 && strncmp(w, "id=", 3) == 0) {
            /* An id names a board in every output and pairs answers with
             * boards (npuzzle verify): never cut short, nor a byte sequence
             * that JSON cannot carry. */
            size_t il = wl - 3;
            if (have_id)
                return np__fail(NP_EPARSE, err, errlen, "field id: given twice");
            have_id = true;
            if (il == 0)
                return np__fail(NP_EPARSE, err, errlen, "field id: empty");
            for (size_t i = 0; i < il; i++) {
                const unsigned char ch = (unsigned char)w[3 + i];
                if (ch < 0x20 || ch == 0x7f)
                    return np__fail(NP_EPARSE, err, errlen,
                                    "field id: '%s' holds a control character (byte 0x%02x)",
                                    shown(b, sizeof b, w + 3, il), ch);
            }
            if (il >= sizeof meta->id)
                return np__fail(NP_EPARSE, err, errlen,
                                "field id: '%.20s...' is %zu bytes long, more than %zu", w + 3, il,
                                sizeof meta->id - 1);
            if (!np__utf8_valid(w + 3, il))
                return np__fail(NP_EPARSE, err, errlen, "field id: not valid UTF-8");
            if (meta) {
                memcpy(meta->id, w + 3, il);
                meta->id[il] = 0;
            }
        }
    }
    return NP_OK;
}

int np_board_parse(np_board *out, np_board_meta *meta, const char *line, int rows, int cols,
                   char *err, size_t errlen)
{
    int vals[NP_MAX_CELLS];
    int count = 0;
    char b[96];
    const char *s = line;
    if (meta) {
        meta->id[0] = 0;
        meta->opt = -1;
    }
    if (err && errlen)
        err[0] = 0;
    if (rows < 0 || cols < 0 || rows > NP_MAX_CELLS || cols > NP_MAX_CELLS)
        return np__fail(NP_EINVAL, err, errlen, "size %dx%d: no board has it", rows, cols);
    for (;;) {
        while (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\n' || *s == ',')
            s++;
        if (*s == 0 || *s == '#')
            break;
        const char *tok = s;
        while (*s && *s != ' ' && *s != '\t' && *s != '\r' && *s != '\n' && *s != ',' && *s != '#')
            s++;
        int tl = (int)(s - tok);
        bool digits = tl > 0;
        for (int i = 0; i < tl && digits; i++)
            if (!isdigit((unsigned char)tok[i]))
                digits = false;
        if (digits && tl > 6)
            return np__fail(NP_EPARSE, err, errlen,
                            "field %d: '%s' has too many digits to be a tile", count + 1,
                            shown(b, sizeof b, tok, (size_t)tl));
        if (!digits) {
            if (tl > 0 && tok[0] == '-')
                return np__fail(NP_EPARSE, err, errlen,
                                "field %d: '%s' is negative (tiles are 0 and up)", count + 1,
                                shown(b, sizeof b, tok, (size_t)tl));
            return np__fail(NP_EPARSE, err, errlen, "field %d: '%s' is not an integer", count + 1,
                            shown(b, sizeof b, tok, (size_t)tl));
        }
        if (count >= NP_MAX_CELLS)
            return np__fail(NP_EPARSE, err, errlen, "field %d: too many numbers (at most %d cells)",
                            count + 1, NP_MAX_CELLS);
        vals[count++] = atoi(tok);
    }
    int line_rows = 0, line_cols = 0; /* from size= */
    if (*s == '#') {
        int rc = parse_comment(meta, s + 1, &line_rows, &line_cols, err, errlen);
        if (rc < 0 && count == 0) {
            /* a line of comment alone (a header, "# format: ... opt=N") is
             * no board: its words are no board's id or opt, and no error */
            if (meta) {
                meta->id[0] = 0;
                meta->opt = -1;
            }
            if (err && errlen)
                err[0] = 0;
            return 0;
        }
        if (rc < 0)
            return rc;
    }
    if (count == 0)
        return 0;

    if (line_rows && rows && cols && (line_rows != rows || line_cols != cols))
        return np__fail(NP_EPARSE, err, errlen,
                        "field size: the line says %dx%d, the size asked for is %dx%d", line_rows,
                        line_cols, rows, cols);
    if (line_rows) {
        rows = line_rows;
        cols = line_cols;
    }
    if (rows == 0 || cols == 0) {
        int side = 0;
        for (int k = NP_MIN_SIDE; k <= NP_MAX_SIDE; k++)
            if (k * k == count)
                side = k;
        if (!side)
            return np__fail(
                NP_EPARSE, err, errlen,
                "field count: %d numbers is not a square board (4, 9, 16, 25, 36, ...); "
                "give its size: size=RxC in its comment, or npuzzle's --size RxC",
                count);
        rows = cols = side;
    }
    int n = rows * cols;
    if (count != n)
        return np__fail(NP_EPARSE, err, errlen, "field count: %d numbers, a %dx%d board needs %d",
                        count, rows, cols, n);
    int seen_at[NP_MAX_CELLS];
    for (int i = 0; i < n; i++)
        seen_at[i] = -1;
    for (int i = 0; i < n; i++) {
        if (vals[i] >= n)
            return np__fail(NP_EPARSE, err, errlen,
                            "field %d: tile %d is out of range (tiles are 0..%d)", i + 1, vals[i],
                            n - 1);
        if (seen_at[vals[i]] >= 0) {
            int missing = 0;
            for (int j = 0; j < n; j++)
                if (vals[j] < n)
                    seen_at[vals[j]] = j;
            while (missing < n && seen_at[missing] >= 0)
                missing++;
            return np__fail(NP_EPARSE, err, errlen,
                            "field %d: duplicate tile %d (tile %d is missing)", i + 1, vals[i],
                            missing);
        }
        seen_at[vals[i]] = i;
    }
    memset(out, 0, sizeof *out);
    out->rows = (uint8_t)rows;
    out->cols = (uint8_t)cols;
    for (int i = 0; i < n; i++) {
        out->tiles[i] = (uint8_t)vals[i];
        if (vals[i] == 0)
            out->blank = (uint8_t)i;
    }
    return 1;
}

int np_board_format(char *buf, size_t buflen, const np_board *b)
{
    int n = b->rows * b->cols;
    size_t used = 0;
    int need = 0;
    for (int i = 0; i < n; i++) {
        char tmp[8];
        int l = snprintf(tmp, sizeof tmp, i ? " %d" : "%d", b->tiles[i]);
        need += l;
        if (buf && used + 1 < buflen) {
            size_t room = buflen - 1 - used;
            size_t k = (size_t)l < room ? (size_t)l : room;
            memcpy(buf + used, tmp, k);
            used += k;
        }
    }
    if (buf && buflen)
        buf[used < buflen ? used : buflen - 1] = 0;
    return need;
}

void np_board_goal(np_board *b, const np_geom *g)
{
    memset(b, 0, sizeof *b);
    b->rows = (uint8_t)g->rows;
    b->cols = (uint8_t)g->cols;
    memcpy(b->tiles, g->goal_tiles, (size_t)g->cells);
    b->blank = g->home[0];
}

bool np_board_valid(const np_board *b, const np_geom *g)
{
    if (b->rows != g->rows || b->cols != g->cols)
        return false;
    uint64_t seen = 0;
    for (int i = 0; i < g->cells; i++) {
        if (b->tiles[i] >= g->cells || (seen >> b->tiles[i] & 1))
            return false;
        seen |= (uint64_t)1 << b->tiles[i];
    }
    return b->blank < g->cells && b->tiles[b->blank] == 0;
}

bool np_board_is_goal(const np_board *b, const np_geom *g)
{
    return memcmp(b->tiles, g->goal_tiles, (size_t)g->cells) == 0;
}

bool np_board_solvable(const np_board *b, const np_geom *g)
{
    /* Count the cycles of the permutation cell -> home cell of the tile there:
     * parity = n - cycles. Each move is a transposition with the blank and moves
     * the blank one step, so parity(permutation) + blank distance is invariant. */
    int n = g->cells;
    bool visited[NP_MAX_CELLS] = {false};
    int cycles = 0;
    for (int c = 0; c < n; c++) {
        if (visited[c])
            continue;
        cycles++;
        for (int x = c; !visited[x]; x = g->home[b->tiles[x]])
            visited[x] = true;
    }
    int perm_parity = (n - cycles) & 1;
    int blank_parity = g->dist[b->blank][g->home[0]] & 1;
    return perm_parity == blank_parity;
}

int np_board_manhattan(const np_board *b, const np_geom *g)
{
    int h = 0;
    for (int c = 0; c < g->cells; c++)
        if (b->tiles[c])
            h += g->dist[c][g->home[b->tiles[c]]];
    return h;
}

int np_board_move(np_board *b, const np_geom *g, int dir)
{
    if (dir < 0 || dir > 3)
        return NP_EINVAL;
    int to = g->nbr[b->blank][dir];
    if (to < 0)
        return NP_EINVAL;
    b->tiles[b->blank] = b->tiles[to];
    b->tiles[to] = 0;
    b->blank = (uint8_t)to;
    return NP_OK;
}

int np_board_apply_moves(np_board *b, const np_geom *g, const char *moves, size_t *bad_index)
{
    for (size_t i = 0; moves[i]; i++) {
        if (isspace((unsigned char)moves[i]) || moves[i] == ',')
            continue;
        int d = np_dir_from_char(moves[i]);
        if (d < 0 || np_board_move(b, g, d) != NP_OK) {
            if (bad_index)
                *bad_index = i;
            return NP_EINVAL;
        }
    }
    return NP_OK;
}

void np_board_mirror(np_board *out, const np_board *b, const np_geom *g)
{
    np_board m;
    m.rows = b->cols;
    m.cols = b->rows;
    memset(m.tiles, 0, sizeof m.tiles);
    for (int c = 0; c < g->cells; c++)
        m.tiles[g->mirror_cell[c]] = g->mirror_tile[b->tiles[c]];
    m.blank = g->mirror_cell[b->blank];
    *out = m;
}

void np_board_random(np_board *out, const np_geom *g, np_rng *rng)
{
    const int n = g->cells;
    memset(out, 0, sizeof *out);
    out->rows = (uint8_t)g->rows;
    out->cols = (uint8_t)g->cols;
    for (int c = 0; c < n; c++)
        out->tiles[c] = (uint8_t)c;
    for (int i = n - 1; i > 0; i--) {
        const int j = (int)np_rng_below(rng, (uint64_t)i + 1);
        const uint8_t t = out->tiles[i];
        out->tiles[i] = out->tiles[j];
        out->tiles[j] = t;
    }
    for (int c = 0; c < n; c++)
        if (out->tiles[c] == 0)
            out->blank = (uint8_t)c;
    if (!np_board_solvable(out, g)) {
        const int a = out->blank == 0 ? 1 : 0, b = out->blank <= 1 ? 2 : 1;
        const uint8_t t = out->tiles[a];
        out->tiles[a] = out->tiles[b];
        out->tiles[b] = t;
    }
}
