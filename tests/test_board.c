/* test_board.c - board module: parsing, printing, parity, mirror, moves, checked against a plain
 * BFS. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "npuzzle/board.h"
#include "npuzzle/error.h"
#include "npuzzle/heuristic.h"
#include "np_utf8.h"
#include "oracle.h"

#ifndef NPUZZLE_DATA_DIR
#define NPUZZLE_DATA_DIR "data"
#endif

/* ---- helpers ------------------------------------------------------------ */

/* A small deterministic generator: the high half of oracle.h's xorshift64*
 * (same seed), so failures reproduce. */
static uint32_t rng_next(void)
{
    return (uint32_t)(rng_next64() >> 32);
}

static void random_board(np_board *b, int rows, int cols)
{
    int n = rows * cols;
    memset(b, 0, sizeof *b);
    b->rows = (uint8_t)rows;
    b->cols = (uint8_t)cols;
    for (int i = 0; i < n; i++)
        b->tiles[i] = (uint8_t)i;
    for (int i = n - 1; i > 0; i--) {
        int j = (int)(rng_next() % (uint32_t)(i + 1));
        uint8_t t = b->tiles[i];
        b->tiles[i] = b->tiles[j];
        b->tiles[j] = t;
    }
    for (int i = 0; i < n; i++)
        if (b->tiles[i] == 0)
            b->blank = (uint8_t)i;
}

static void assert_same_board(const np_board *a, const np_board *b)
{
    assert_int_equal(a->rows, b->rows);
    assert_int_equal(a->cols, b->cols);
    assert_int_equal(a->blank, b->blank);
    assert_memory_equal(a->tiles, b->tiles, (size_t)(a->rows * a->cols));
}

/* Parse a line that must hold a board of the given shape; returns it. */
static np_board parse_ok(const char *line, int rows, int cols, int want_rows, int want_cols,
                         np_board_meta *meta)
{
    np_board b;
    char err[256] = "";
    int rc = np_board_parse(&b, meta, line, rows, cols, err, sizeof err);
    if (rc != 1)
        print_error("np_board_parse(\"%s\") = %d: %s\n", line, rc, err);
    assert_int_equal(rc, 1);
    assert_int_equal(b.rows, want_rows);
    assert_int_equal(b.cols, want_cols);
    assert_int_equal(b.tiles[b.blank], 0);
    return b;
}

/* Parse a malformed line: must return NP_EPARSE with a one-line message that
 * contains every string in the NULL-terminated list. */
static void expect_parse_error(const char *line, int rows, int cols, ...)
{
    np_board b;
    np_board_meta meta;
    char err[256] = "";
    int rc = np_board_parse(&b, &meta, line, rows, cols, err, sizeof err);
    if (rc != NP_EPARSE)
        print_error("np_board_parse(\"%s\") = %d, wanted NP_EPARSE\n", line, rc);
    assert_true(rc == NP_EPARSE);
    assert_true(err[0] != 0);
    assert_null(strchr(err, '\n'));
    va_list ap;
    va_start(ap, cols);
    for (const char *want; (want = va_arg(ap, const char *)) != NULL;) {
        if (!strstr(err, want))
            print_error("message \"%s\" for \"%s\" lacks \"%s\"\n", err, line, want);
        assert_non_null(strstr(err, want));
    }
    va_end(ap);
}

/* ---- parsing: accepted input -------------------------------------------- */

static void test_parse_separators(void **state)
{
    (void)state;
    static const char *lines[] = {
        "1 2 3 0", "1\t2\t3\t0", "1,2,3,0", " 1, 2,\t3 ,0 ", "1 2 3 0\r\n", "1  2\t\t3,,0\n",
    };
    for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++) {
        np_board b = parse_ok(lines[i], 0, 0, 2, 2, NULL);
        static const uint8_t want[4] = {1, 2, 3, 0};
        assert_memory_equal(b.tiles, want, 4);
        assert_int_equal(b.blank, 3);
    }
}

static void test_parse_comment_meta(void **state)
{
    (void)state;
    np_board_meta meta;
    np_board b = parse_ok("8 7 6 0 4 1 2 5 3  # id=foo opt=12", 0, 0, 3, 3, &meta);
    assert_string_equal(meta.id, "foo");
    assert_int_equal(meta.opt, 12);
    assert_int_equal(b.blank, 3);
    assert_int_equal(b.tiles[0], 8);

    /* Other words in the comment are ignored; order does not matter. */
    parse_ok("0 1 2 3 # hard one opt=6 from somewhere id=x17", 0, 0, 2, 2, &meta);
    assert_string_equal(meta.id, "x17");
    assert_int_equal(meta.opt, 6);

    /* Comment directly after the last number, no space. */
    parse_ok("0 1 2 3#id=7", 0, 0, 2, 2, &meta);
    assert_string_equal(meta.id, "7");
    assert_int_equal(meta.opt, -1);

    /* No comment: meta is reset, even after a line that set it. */
    strcpy(meta.id, "stale");
    meta.opt = 99;
    parse_ok("0 1 2 3", 0, 0, 2, 2, &meta);
    assert_string_equal(meta.id, "");
    assert_int_equal(meta.opt, -1);

    /* The longest id that fits is kept whole; UTF-8 passes through. */
    char line[256], want[64];
    snprintf(want, sizeof want, "%063d", 5);
    snprintf(line, sizeof line, "0 1 2 3 # id=%s", want);
    parse_ok(line, 0, 0, 2, 2, &meta);
    assert_string_equal(meta.id, want);
    parse_ok("0 1 2 3 # id=caf\xc3\xa9-\xe2\x82\xac-\xf0\x9f\x98\x80", 0, 0, 2, 2, &meta);
    assert_string_equal(meta.id, "caf\xc3\xa9-\xe2\x82\xac-\xf0\x9f\x98\x80");
}

/* An id is never cut short (two ids that differ past the cut would name one
 * board), never empty, and always UTF-8 (JSON output carries it). */
static void test_parse_bad_id(void **state)
{
    (void)state;
    char line[256];
    snprintf(line, sizeof line, "0 1 2 3 # id=%064d", 5);
    expect_parse_error(line, 0, 0, "field id", "64 bytes", NULL);
    expect_parse_error("0 1 2 3 # id= opt=3", 0, 0, "field id", "empty", NULL);
    /* Latin-1, an overlong form, a surrogate, a sequence cut short */
    expect_parse_error("0 1 2 3 # id=caf\xe9", 0, 0, "field id", "UTF-8", NULL);
    expect_parse_error("0 1 2 3 # id=\xc0\xaf", 0, 0, "field id", "UTF-8", NULL);
    expect_parse_error("0 1 2 3 # id=\xed\xa0\x80", 0, 0, "field id", "UTF-8", NULL);
    expect_parse_error("0 1 2 3 # id=\xe2\x82", 0, 0, "field id", "UTF-8", NULL);
}

static void test_parse_no_board(void **state)
{
    (void)state;
    /* the last ones: a header that names the fields, ids given twice, an
     * over-long id, a bad opt; on a board's line each is an error (above), on a
     * line of comment alone none (it failed the whole input) */
    static const char *lines[] = {
        "",
        "\n",
        "   \t ",
        "# a comment",
        "   # id=3 opt=4",
        "#",
        "\r\n",
        "# format: tiles # id=NAME opt=N",
        "# id=x id=y",
        "# id=0123456789012345678901234567890123456789012345678901234567890123",
        "# opt=-3 id=\xe9"};
    for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++) {
        np_board b;
        np_board_meta meta;
        char err[128] = "";
        int rc = np_board_parse(&b, &meta, lines[i], 0, 0, err, sizeof err);
        if (rc != 0)
            fail_msg("line %zu '%s': %d (%s), want 0", i, lines[i], rc, err);
        assert_string_equal(err, "");
        rc = np_board_parse(&b, NULL, lines[i], 4, 4, NULL, 0);
        assert_int_equal(rc, 0);
    }
}

static void test_parse_size_inferred(void **state)
{
    (void)state;
    for (int side = 2; side <= 6; side++) {
        char line[512];
        size_t len = 0;
        int n = side * side;
        /* Tiles in reverse order: blank last. */
        for (int i = 0; i < n; i++)
            len += (size_t)snprintf(line + len, sizeof line - len, "%s%d", i ? " " : "", n - 1 - i);
        np_board b = parse_ok(line, 0, 0, side, side, NULL);
        assert_int_equal(b.blank, n - 1);
        for (int i = 0; i < n; i++)
            assert_int_equal(b.tiles[i], n - 1 - i);
    }
}

static void test_parse_size_explicit(void **state)
{
    (void)state;
    np_board b = parse_ok("1 2 0 3 4 5", 2, 3, 2, 3, NULL);
    assert_int_equal(b.blank, 2);
    b = parse_ok("1 2 0 3 4 5", 3, 2, 3, 2, NULL);
    assert_int_equal(b.blank, 2);
    b = parse_ok("7 6 5 4 3 2 1 0", 2, 4, 2, 4, NULL);
    assert_int_equal(b.blank, 7);
    /* An explicit size wins over the square guess: 16 numbers as 2x8. */
    b = parse_ok("0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15", 2, 8, 2, 8, NULL);
    assert_int_equal(b.tiles[15], 15);
    /* ... and as 4x4 when said so. */
    b = parse_ok("0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15", 4, 4, 4, 4, NULL);
    assert_int_equal(b.blank, 0);
}

/* A size out of range is the caller's error, refused before the count is
 * compared: -1 x -9 multiplies to 9, and was read as a 255 x 247 board. */
static void test_parse_size_out_of_range(void **state)
{
    (void)state;
    static const int sizes[][2] = {{-1, -9}, {-3, -3}, {-9, -1}, {65, 1}, {1, 65}};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        np_board b;
        char err[128] = "";
        assert_int_equal(np_board_parse(&b, NULL, "0 1 2 3 4 5 6 7 8", sizes[i][0], sizes[i][1],
                                        err, sizeof err),
                         NP_EINVAL);
        assert_non_null(strstr(err, "size"));
    }
}

/* ---- parsing: malformed input, one case per test ------------------------- */

static void test_parse_bad_count_explicit(void **state)
{
    (void)state;
    expect_parse_error("1 2 3 4 5 6 7 8 9 10 11 12 13 14 0", 4, 4, "count", "15", NULL);
    expect_parse_error("0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16", 4, 4, "count", "17", NULL);
    expect_parse_error("0 1 2 3 4 5 6 7 8", 2, 3, "count", "9", NULL);
}

static void test_parse_bad_count_inferred(void **state)
{
    (void)state;
    expect_parse_error("0 1 2 3 4 5 6 7 8 9", 0, 0, "count", "10", NULL);
    expect_parse_error("0 1", 0, 0, "count", NULL);
    expect_parse_error("0", 0, 0, "count", NULL);
}

static void test_parse_too_many_numbers(void **state)
{
    (void)state;
    char line[1024];
    size_t len = 0;
    for (int i = 0; i < NP_MAX_CELLS + 6; i++)
        len += (size_t)snprintf(line + len, sizeof line - len, "%d ", i);
    np_board b;
    char err[128];
    assert_true(np_board_parse(&b, NULL, line, 0, 0, err, sizeof err) == NP_EPARSE);
    assert_true(err[0] != 0);
}

static void test_parse_duplicate_tile(void **state)
{
    (void)state;
    /* Tile 5 twice (fields 6 and 14): tile 13 is then missing. */
    expect_parse_error("0 1 2 3 4 5 6 7 8 9 10 11 12 5 14 15", 0, 0, "duplicate", "5", NULL);
}

static void test_parse_missing_tile(void **state)
{
    (void)state;
    expect_parse_error("0 1 2 3 4 5 6 7 8 9 10 11 12 5 14 15", 0, 0, "missing", "13", NULL);
    /* Missing blank. */
    expect_parse_error("1 2 3 1", 0, 0, "missing", "0", NULL);
}

static void test_parse_out_of_range(void **state)
{
    (void)state;
    expect_parse_error("1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16", 4, 4, "range", "16", NULL);
    expect_parse_error("1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16", 0, 0, "range", "16", NULL);
    expect_parse_error("0 1 2 3 4 6", 2, 3, "range", "6", "field 6", NULL);
    expect_parse_error("0 1 2 99999999999999999999", 0, 0, "field 4", NULL);
}

static void test_parse_negative(void **state)
{
    (void)state;
    expect_parse_error("1 2 3 -1", 0, 0, "field 4", "-1", NULL);
    /* an integer too long to be a tile says so, not "not an integer" */
    expect_parse_error("1 2 3 1234567", 0, 0, "field 4", "1234567", "too many digits", NULL);
    expect_parse_error("1 2 3 00000008", 0, 0, "field 4", "too many digits", NULL);
    expect_parse_error("-0 1 2 3", 0, 0, "field 1", "negative", NULL);
    /* a token longer than the 20 bytes shown is marked cut */
    expect_parse_error("1 2 3 123456789012345678901234", 0, 0, "field 4",
                       "12345678901234567890...'", NULL);
}

static void test_parse_not_integer(void **state)
{
    (void)state;
    expect_parse_error("0 1 2 x", 0, 0, "field 4", "x", NULL);
    expect_parse_error("0 1 2 1.5", 0, 0, "field 4", "1.5", NULL);
    expect_parse_error("0 1a 2 3", 0, 0, "field 2", "1a", NULL);
    expect_parse_error("0 +1 2 3", 0, 0, "field 2", NULL);
    expect_parse_error("0;1;2;3", 0, 0, "field 1", NULL);
}

static void test_parse_bad_opt(void **state)
{
    (void)state;
    expect_parse_error("0 1 2 3 # opt=abc", 0, 0, "opt", "abc", NULL);
    expect_parse_error("0 1 2 3 # id=a opt=12x", 0, 0, "opt", "12x", NULL);
    expect_parse_error("0 1 2 3 # opt=-4", 0, 0, "opt", NULL);
    expect_parse_error("0 1 2 3 # opt= id=4", 0, 0, "opt", NULL);
}

/* size=RxC in the comment gives the board's size: a 2x8 board has a 4x4's
 * count of tiles, and a non-square one needs a size. */
static void test_parse_size_word(void **state)
{
    (void)state;
    np_board_meta meta;
    np_board b = parse_ok("5 1 2 3 4 0 6 7 # id=a size=2x4", 0, 0, 2, 4, &meta);
    assert_string_equal(meta.id, "a");
    assert_int_equal(b.blank, 5);
    parse_ok("5 1 2 3 4 0 6 7 # size=4x2", 0, 0, 4, 2, NULL);
    parse_ok("5 1 2 3 4 0 6 7 # size=4X2", 0, 0, 4, 2, NULL);
    /* 16 tiles: 4x4 by their count, 2x8 or 8x2 by the word */
    const char *t16 = "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 0";
    char line[128];
    parse_ok(t16, 0, 0, 4, 4, NULL);
    snprintf(line, sizeof line, "%s # size=2x8", t16);
    parse_ok(line, 0, 0, 2, 8, NULL);
    parse_ok(line, 2, 8, 2, 8, NULL); /* the caller's size, the same */
    expect_parse_error(line, 4, 4, "field size", "2x8", "4x4", NULL);
    snprintf(line, sizeof line, "%s # size=8x2 opt=3", t16);
    b = parse_ok(line, 0, 0, 8, 2, &meta);
    assert_int_equal(meta.opt, 3);
    assert_int_equal(b.blank, 15);
    /* the count must fit the size said */
    expect_parse_error("0 1 2 3 # size=2x4", 0, 0, "field count", "2x4", NULL);
    snprintf(line, sizeof line, "%s # size=3x5", t16);
    expect_parse_error(line, 0, 0, "field count", "3x5", NULL);
    /* malformed: each side 2..8, nothing else in the word, once */
    static const char *bad[] = {"size=",    "size=2",    "size=2x",          "size=x4",
                                "size=1x4", "size=2x9",  "size=9x2",         "size=2x4x",
                                "size=2*4", "size=-2x4", "size=2x4,size=2x4"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        snprintf(line, sizeof line, "5 1 2 3 4 0 6 7 # %s", bad[i]);
        expect_parse_error(line, 0, 0, "field size", NULL);
    }
    /* a comment line alone is no board, whatever its words */
    np_board c;
    assert_int_equal(np_board_parse(&c, NULL, "# size=9x9", 0, 0, NULL, 0), 0);
}

/* ---- geometry --------------------------------------------------------------- */

static void test_geom_init(void **state)
{
    (void)state;
    np_geom g;
    assert_true(np_geom_init(&g, 1, 4, NP_GOAL_BLANK_FIRST) == NP_EINVAL);
    assert_true(np_geom_init(&g, 4, 1, NP_GOAL_BLANK_FIRST) == NP_EINVAL);
    assert_true(np_geom_init(&g, NP_MAX_SIDE + 1, 3, NP_GOAL_BLANK_FIRST) == NP_EINVAL);
    assert_true(np_geom_init(&g, 3, 3, (np_goal)7) == NP_EINVAL);
    for (int r = NP_MIN_SIDE; r <= NP_MAX_SIDE; r++)
        for (int c = NP_MIN_SIDE; c <= NP_MAX_SIDE; c++)
            for (int goal = 0; goal < 2; goal++) {
                assert_int_equal(np_geom_init(&g, r, c, (np_goal)goal), NP_OK);
                int n = r * c;
                assert_int_equal(g.cells, n);
                np_board b;
                np_board_goal(&b, &g);
                assert_true(np_board_valid(&b, &g));
                /* a blank index off the board is refused, not followed */
                np_board off = b;
                off.blank = (uint8_t)n;
                assert_false(np_board_valid(&off, &g));
                off.blank = 255;
                assert_false(np_board_valid(&off, &g));
                assert_true(np_board_is_goal(&b, &g));
                assert_true(np_board_solvable(&b, &g));
                assert_int_equal(np_h_manhattan(&b, &g), 0);
                assert_int_equal(np_h_linear_conflict(&b, &g), 0);
                for (int i = 0; i < n; i++) {
                    int want = goal == NP_GOAL_BLANK_FIRST ? i : (i + 1) % n;
                    assert_int_equal(b.tiles[i], want);
                }
                assert_int_equal(b.blank, goal == NP_GOAL_BLANK_FIRST ? 0 : n - 1);
            }
}

/* Cell labels (the numbering PDBs rank placements by) follow the rows as a
 * snake, and np_geom_labelled() renames every cell by its label consistently:
 * neighbours, homes, goal, distances and mirror, checked from the definition
 * on every board size. */
static void test_geom_labels(void **state)
{
    (void)state;
    for (int r = NP_MIN_SIDE; r <= NP_MAX_SIDE; r++)
        for (int k = NP_MIN_SIDE; k <= NP_MAX_SIDE; k++)
            for (int goal = 0; goal < 2; goal++) {
                np_geom g, lg;
                assert_int_equal(np_geom_init(&g, r, k, (np_goal)goal), NP_OK);
                assert_int_equal(np_geom_labelled(&g, &lg), NP_OK);
                assert_true(g.numbering == NP_CELLS_ROW_MAJOR && lg.numbering == NP_CELLS_LABELLED);
                /* labels are applied once: a labelled geometry is refused */
                np_geom twice = lg;
                assert_true(np_geom_labelled(&lg, &twice) == NP_EINVAL);
                assert_memory_equal(&twice, &lg, sizeof lg);
                int n = r * k;
                uint64_t seen = 0;
                for (int c = 0; c < n; c++) {
                    int row = c / k, col = c % k;
                    int want = row * k + (row % 2 == 0 ? col : k - 1 - col);
                    assert_int_equal(g.label[c], want);
                    seen |= UINT64_C(1) << g.label[c];
                    assert_int_equal(lg.label[c], c);
                    assert_int_equal(lg.goal_tiles[g.label[c]], g.goal_tiles[c]);
                    assert_int_equal(g.row[c], row);
                    assert_int_equal(g.col[c], col);
                    assert_int_equal(lg.row[g.label[c]], row);
                    assert_int_equal(lg.col[g.label[c]], col);
                    assert_int_equal(lg.mirror_cell[g.label[c]], g.label[g.mirror_cell[c]]);
                    for (int d = 0; d < 4; d++) {
                        int x = g.nbr[c][d];
                        assert_int_equal(lg.nbr[g.label[c]][d], x < 0 ? -1 : g.label[x]);
                    }
                    for (int b = 0; b < n; b++)
                        assert_int_equal(lg.dist[g.label[c]][g.label[b]], g.dist[c][b]);
                }
                assert_true(seen == (n == 64 ? ~UINT64_C(0) : (UINT64_C(1) << n) - 1));
                for (int t = 0; t < n; t++)
                    assert_int_equal(lg.home[t], g.label[g.home[t]]);
                assert_int_equal(lg.rows, r);
                assert_int_equal(lg.cols, k);
                assert_int_equal(lg.goal, goal);
            }
}

/* ---- format / parse round trip ----------------------------------------------- */

static void test_format_round_trip(void **state)
{
    (void)state;
    static const int shapes[][2] = {
        {2, 2}, {3, 3}, {4, 4}, {5, 5}, {6, 6}, {7, 7}, {8, 8},
        {2, 3}, {3, 2}, {3, 4}, {2, 5}, {5, 2}, {4, 6},
    };
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
        int rows = shapes[s][0], cols = shapes[s][1];
        for (int k = 0; k < 200; k++) {
            np_board b;
            random_board(&b, rows, cols);
            char buf[512];
            int need = np_board_format(buf, sizeof buf, &b);
            assert_int_equal(need, (int)strlen(buf));
            /* single spaces, no leading or trailing blank */
            assert_true(buf[0] != ' ' && buf[need - 1] != ' ');
            assert_null(strstr(buf, "  "));
            np_board back = parse_ok(buf, rows, cols, rows, cols, NULL);
            assert_same_board(&b, &back);
            if (rows == cols) {
                back = parse_ok(buf, 0, 0, rows, cols, NULL);
                assert_same_board(&b, &back);
            }
        }
    }
}

static void test_format_truncates(void **state)
{
    (void)state;
    np_board b = parse_ok("10 11 12 13 14 15 0 1 2 3 4 5 6 7 8 9", 0, 0, 4, 4, NULL);
    char full[128];
    int need = np_board_format(full, sizeof full, &b);
    assert_string_equal(full, "10 11 12 13 14 15 0 1 2 3 4 5 6 7 8 9");
    char small[8];
    memset(small, 'Z', sizeof small);
    assert_int_equal(np_board_format(small, sizeof small, &b), need);
    assert_true(memchr(small, 0, sizeof small) != NULL);
    assert_int_equal(strncmp(small, full, strlen(small)), 0);
    assert_int_equal(np_board_format(NULL, 0, &b), need);
}

/* ---- the BFS oracle ------------------------------------------------------
 * tests/oracle.h: a plain breadth-first search over all permutations of a small
 * board, with its own move code and its own permutation ranking (Lehmer code);
 * it shares nothing with the library but the board struct used to ask questions. */

/* The oracles are built once per shape and goal and shared by the tests
 * (the 3x3 one is used by three of them); freed by the group teardown. */
static oracle *oracle_cache[16];

static const oracle *oracle_get(int rows, int cols, np_goal goal)
{
    int blank_last = goal != NP_GOAL_BLANK_FIRST;
    size_t i = 0;
    for (; i < sizeof oracle_cache / sizeof oracle_cache[0] && oracle_cache[i]; i++) {
        const oracle *o = oracle_cache[i];
        if (o->rows == rows && o->cols == cols && o->blank_last == blank_last)
            return o;
    }
    assert_true(i < sizeof oracle_cache / sizeof oracle_cache[0]);
    oracle *o = malloc(sizeof *o);
    assert_non_null(o);
    oracle_build(o, rows, cols, blank_last);
    oracle_cache[i] = o;
    return o;
}

static int oracles_free(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof oracle_cache / sizeof oracle_cache[0]; i++) {
        if (oracle_cache[i])
            oracle_free(oracle_cache[i]);
        free(oracle_cache[i]);
        oracle_cache[i] = NULL;
    }
    return 0;
}

static void board_from_rank(np_board *b, const oracle *o, uint32_t r)
{
    uint8_t p[OR_MAX_CELLS];
    perm_unrank(r, p, o->n);
    *b = make_board(p, o->rows, o->cols);
}

/* Parity: np_board_solvable agrees with reachability for every arrangement. */
static void check_parity(int rows, int cols, np_goal goal)
{
    const oracle *o = oracle_get(rows, cols, goal);
    np_geom g;
    assert_int_equal(np_geom_init(&g, rows, cols, goal), NP_OK);
    assert_int_equal(o->reached, o->count / 2);
    uint32_t solvable = 0;
    for (uint32_t r = 0; r < o->count; r++) {
        np_board b;
        board_from_rank(&b, o, r);
        bool s = np_board_solvable(&b, &g);
        if (s != (o->dist[r] >= 0)) {
            char buf[64];
            np_board_format(buf, sizeof buf, &b);
            print_error("%dx%d %s: board %s solvable=%d, BFS says %d\n", rows, cols,
                        np_goal_name(goal), buf, s, o->dist[r] >= 0);
        }
        assert_true(s == (o->dist[r] >= 0));
        solvable += s;
    }
    assert_int_equal(solvable, o->count / 2);
}

static void test_parity_2x3(void **state)
{
    (void)state;
    check_parity(2, 3, NP_GOAL_BLANK_FIRST);
    check_parity(2, 3, NP_GOAL_BLANK_LAST);
    check_parity(3, 2, NP_GOAL_BLANK_FIRST);
    check_parity(3, 2, NP_GOAL_BLANK_LAST);
    check_parity(2, 2, NP_GOAL_BLANK_FIRST);
    check_parity(2, 2, NP_GOAL_BLANK_LAST);
}

static void test_parity_3x3(void **state)
{
    (void)state;
    check_parity(3, 3, NP_GOAL_BLANK_FIRST);
    check_parity(3, 3, NP_GOAL_BLANK_LAST);
}

/* Parity on large boards, where BFS is out of reach: a scramble by random legal
 * moves (own move code) stays solvable, and swapping two tiles flips it. */
static void test_parity_random_walks(void **state)
{
    (void)state;
    for (int rows = NP_MIN_SIDE; rows <= NP_MAX_SIDE; rows++)
        for (int cols = NP_MIN_SIDE; cols <= NP_MAX_SIDE; cols++)
            for (int goal = 0; goal < 2; goal++) {
                np_geom g;
                assert_int_equal(np_geom_init(&g, rows, cols, (np_goal)goal), NP_OK);
                for (int k = 0; k < 20; k++) {
                    np_board b;
                    np_board_goal(&b, &g);
                    int steps = (int)(rng_next() % 300);
                    for (int s = 0; s < steps; s++) {
                        int r = b.blank / cols, c = b.blank % cols, to;
                        switch (rng_next() % 4) {
                        case 0: to = r > 0 ? b.blank - cols : -1; break;
                        case 1: to = c > 0 ? b.blank - 1 : -1; break;
                        case 2: to = c < cols - 1 ? b.blank + 1 : -1; break;
                        default: to = r < rows - 1 ? b.blank + cols : -1; break;
                        }
                        if (to < 0)
                            continue;
                        b.tiles[b.blank] = b.tiles[to];
                        b.tiles[to] = 0;
                        b.blank = (uint8_t)to;
                    }
                    assert_true(np_board_valid(&b, &g));
                    assert_true(np_board_solvable(&b, &g));
                    /* swap two distinct non-blank tiles */
                    int i = (int)(rng_next() % (uint32_t)g.cells), j;
                    do
                        j = (int)(rng_next() % (uint32_t)g.cells);
                    while (j == i);
                    if (i == b.blank || j == b.blank) {
                        i = (b.blank + 1) % g.cells;
                        j = (b.blank + 2) % g.cells;
                    }
                    uint8_t t = b.tiles[i];
                    b.tiles[i] = b.tiles[j];
                    b.tiles[j] = t;
                    assert_false(np_board_solvable(&b, &g));
                    /* moving the blank one step does not change that */
                    int dir = g.nbr[b.blank][NP_UP] >= 0 ? NP_UP : NP_DOWN;
                    assert_int_equal(np_board_move(&b, &g, dir), NP_OK);
                    assert_false(np_board_solvable(&b, &g));
                }
            }
}

/* ---- heuristics against the true distance ------------------------------- */

/* Checks every reachable board; returns how many have lc > md. */
static uint32_t check_heuristics(const oracle *o, np_goal goal)
{
    np_geom g;
    assert_int_equal(np_geom_init(&g, o->rows, o->cols, goal), NP_OK);
    uint32_t improved = 0;
    for (uint32_t r = 0; r < o->count; r++) {
        if (o->dist[r] < 0)
            continue;
        np_board b;
        board_from_rank(&b, o, r);
        int d = o->dist[r];
        int md = np_h_manhattan(&b, &g);
        int lc = np_h_linear_conflict(&b, &g);
        if (md > d || lc > d || lc < md) {
            char buf[64];
            np_board_format(buf, sizeof buf, &b);
            print_error("%dx%d %s: board %s dist %d md %d lc %d\n", o->rows, o->cols,
                        np_goal_name(goal), buf, d, md, lc);
        }
        assert_true(md <= d);
        assert_true(lc <= d);
        assert_true(lc >= md);
        /* every move changes Manhattan distance by one */
        assert_int_equal((d - md) & 1, 0);
        assert_int_equal((lc - md) & 1, 0);
        assert_int_equal(np_board_manhattan(&b, &g), md);
        assert_int_equal(np_board_is_goal(&b, &g), d == 0);
        improved += lc > md;
    }
    return improved;
}

static void test_bfs_3x3_heuristics(void **state)
{
    (void)state;
    const oracle *o = oracle_get(3, 3, NP_GOAL_BLANK_FIRST);
    assert_int_equal(o->reached, 181440);
    assert_int_equal(o->maxd, 31);
    assert_int_equal(o->per_dist[31], 2);
    /* the published depth profile of the 8-puzzle */
    static const uint32_t profile[32] = {
        1,     2,     4,     8,     16,    20,   39,   62,   116,   152,   286,
        396,   748,   1024,  1893,  2512,  4485, 5638, 9529, 10878, 16993, 17110,
        23952, 20224, 24047, 15578, 14560, 6274, 3910, 760,  221,   2,
    };
    for (int d = 0; d < 32; d++)
        assert_int_equal(o->per_dist[d], profile[d]);
    /* the two 31-move boards */
    static const uint8_t far[2][9] = {{8, 0, 6, 5, 4, 7, 2, 3, 1}, {8, 7, 6, 0, 4, 1, 2, 5, 3}};
    for (int i = 0; i < 2; i++)
        assert_int_equal(o->dist[perm_rank(far[i], 9)], 31);
    /* linear conflict must find conflicts on a good share of the boards */
    assert_true(check_heuristics(o, NP_GOAL_BLANK_FIRST) > o->reached / 10);

    o = oracle_get(3, 3, NP_GOAL_BLANK_LAST);
    assert_int_equal(o->maxd, 31);
    assert_int_equal(o->per_dist[31], 2);
    assert_true(check_heuristics(o, NP_GOAL_BLANK_LAST) > o->reached / 10);
}

/* Hand-worked values: linear conflict must really add the conflicts. */
static void test_linear_conflict_values(void **state)
{
    (void)state;
    static const struct {
        const char *board;
        int md, lc;
    } cases[] = {
        {"0 1 2 3 4 5 6 7 8", 0, 0}, {"0 2 1 3 4 5 6 7 8", 2, 4}, /* 1 and 2 swapped in row 0 */
        {"0 1 2 6 4 5 3 7 8", 2, 4},                              /* 3 and 6 swapped in column 0 */
        {"0 1 2 3 4 5 8 7 6", 4, 8}, /* row 2 reversed: two tiles must leave it */
        {"0 1 2 5 4 3 6 7 8", 4, 8}, /* row 1 reversed */
        {"1 0 2 3 4 5 6 7 8", 1, 1}, /* the blank is no tile */
        {"4 1 2 3 0 5 6 7 8", 2, 2}, /* 4 out of its lines: no conflict */
        {"0 1 8 3 4 5 6 7 2", 4, 8}, /* column 2 reads 8 5 2: two tiles leave it */
    };
    np_geom g;
    assert_int_equal(np_geom_init(&g, 3, 3, NP_GOAL_BLANK_FIRST), NP_OK);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        np_board b = parse_ok(cases[i].board, 0, 0, 3, 3, NULL);
        if (np_h_manhattan(&b, &g) != cases[i].md || np_h_linear_conflict(&b, &g) != cases[i].lc)
            print_error("%s: md %d lc %d, want %d %d\n", cases[i].board, np_h_manhattan(&b, &g),
                        np_h_linear_conflict(&b, &g), cases[i].md, cases[i].lc);
        assert_int_equal(np_h_manhattan(&b, &g), cases[i].md);
        assert_int_equal(np_h_linear_conflict(&b, &g), cases[i].lc);
    }
    /* 4x4: row 0 holds 3 2 1 in reverse (blank at 0): md 4, two tiles leave the row */
    assert_int_equal(np_geom_init(&g, 4, 4, NP_GOAL_BLANK_FIRST), NP_OK);
    np_board b = parse_ok("0 3 2 1 4 5 6 7 8 9 10 11 12 13 14 15", 0, 0, 4, 4, NULL);
    assert_int_equal(np_h_manhattan(&b, &g), 4);
    assert_int_equal(np_h_linear_conflict(&b, &g), 8);
}

static void test_bfs_small_heuristics(void **state)
{
    (void)state;
    static const int shapes[][2] = {{2, 2}, {2, 3}, {3, 2}, {2, 4}, {4, 2}};
    static const int diameter[] = {6, 21, 21, 36, 36};
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++)
        for (int goal = 0; goal < 2; goal++) {
            const oracle *o = oracle_get(shapes[s][0], shapes[s][1], (np_goal)goal);
            assert_int_equal(o->reached, o->count / 2);
            assert_int_equal(o->maxd, diameter[s]);
            uint32_t improved = check_heuristics(o, (np_goal)goal);
            if (o->n > 4)
                assert_true(improved > 0);
        }
}

/* ---- mirror ------------------------------------------------------------- */

static void test_mirror_goal_and_involution(void **state)
{
    (void)state;
    for (int side = NP_MIN_SIDE; side <= NP_MAX_SIDE; side++)
        for (int goal = 0; goal < 2; goal++) {
            np_geom g;
            assert_int_equal(np_geom_init(&g, side, side, (np_goal)goal), NP_OK);
            assert_true(g.square);
            np_board b, m, mm;
            np_board_goal(&b, &g);
            np_board_mirror(&m, &b, &g);
            assert_same_board(&b, &m);
            for (int k = 0; k < 200; k++) {
                random_board(&b, side, side);
                np_board_mirror(&m, &b, &g);
                assert_true(np_board_valid(&m, &g));
                assert_int_equal(m.blank, (b.blank % side) * side + b.blank / side);
                assert_int_equal(np_board_solvable(&m, &g), np_board_solvable(&b, &g));
                assert_int_equal(np_h_manhattan(&m, &g), np_h_manhattan(&b, &g));
                assert_int_equal(np_h_linear_conflict(&m, &g), np_h_linear_conflict(&b, &g));
                np_board_mirror(&mm, &m, &g);
                assert_same_board(&b, &mm);
            }
        }
}

static void test_mirror_preserves_distance(void **state)
{
    (void)state;
    for (int goal = 0; goal < 2; goal++) {
        const oracle *o = oracle_get(3, 3, (np_goal)goal);
        np_geom g;
        assert_int_equal(np_geom_init(&g, 3, 3, (np_goal)goal), NP_OK);
        uint32_t fixed = 0;
        for (uint32_t r = 0; r < o->count; r++) {
            np_board b, m;
            board_from_rank(&b, o, r);
            np_board_mirror(&m, &b, &g);
            assert_int_equal(m.rows, 3);
            assert_int_equal(m.cols, 3);
            assert_int_equal(m.tiles[m.blank], 0);
            uint32_t mr = perm_rank(m.tiles, 9);
            assert_int_equal(o->dist[mr], o->dist[r]);
            fixed += mr == r;
        }
        /* the mirror is not the identity: few boards are symmetric */
        assert_true(fixed < o->count / 100);
    }
}

/* ---- moves -------------------------------------------------------------- */

static void test_apply_moves(void **state)
{
    (void)state;
    np_geom g;
    assert_int_equal(np_geom_init(&g, 3, 3, NP_GOAL_BLANK_FIRST), NP_OK);
    np_board b, want;
    np_board_goal(&b, &g);
    size_t bad = 12345;
    assert_int_equal(np_board_apply_moves(&b, &g, "RD", &bad), NP_OK);
    want = parse_ok("1 4 2 3 0 5 6 7 8", 0, 0, 3, 3, NULL);
    assert_same_board(&b, &want);
    assert_int_equal(bad, 12345);

    /* lower case and spaces; then back to the goal */
    assert_int_equal(np_board_apply_moves(&b, &g, "r d l", NULL), NP_OK);
    want = parse_ok("1 4 2 3 5 8 6 0 7", 0, 0, 3, 3, NULL);
    assert_same_board(&b, &want);
    assert_int_equal(np_board_apply_moves(&b, &g, "RULUL", NULL), NP_OK);
    assert_true(np_board_is_goal(&b, &g));
    assert_int_equal(b.blank, 0);

    /* empty string is fine */
    assert_int_equal(np_board_apply_moves(&b, &g, "", &bad), NP_OK);
    assert_true(np_board_is_goal(&b, &g));

    /* a non-square board: blank-last goal on 2x3, blank at cell 5 */
    np_geom g23;
    assert_int_equal(np_geom_init(&g23, 2, 3, NP_GOAL_BLANK_LAST), NP_OK);
    np_board_goal(&b, &g23);
    assert_int_equal(np_board_apply_moves(&b, &g23, "ULLDR", NULL), NP_OK);
    /* goal 1 2 3 / 4 5 0; U: 1 2 0 / 4 5 3; L: 1 0 2 / 4 5 3; L: 0 1 2 / 4 5 3;
     * D: 4 1 2 / 0 5 3; R: 4 1 2 / 5 0 3 */
    want = parse_ok("4 1 2 5 0 3", 2, 3, 2, 3, NULL);
    assert_same_board(&b, &want);
}

static void test_apply_moves_illegal(void **state)
{
    (void)state;
    np_geom g;
    assert_int_equal(np_geom_init(&g, 3, 3, NP_GOAL_BLANK_FIRST), NP_OK);
    np_board b, want;

    /* off the top at once */
    np_board_goal(&b, &g);
    size_t bad = 999;
    assert_true(np_board_apply_moves(&b, &g, "U", &bad) == NP_EINVAL);
    assert_int_equal(bad, 0);
    assert_true(np_board_is_goal(&b, &g));

    /* the third R leaves the board: stopped after RR */
    np_board_goal(&b, &g);
    assert_true(np_board_apply_moves(&b, &g, "RRRD", &bad) == NP_EINVAL);
    assert_int_equal(bad, 2);
    want = parse_ok("1 2 0 3 4 5 6 7 8", 0, 0, 3, 3, NULL);
    assert_same_board(&b, &want);

    /* the index counts spaces too */
    np_board_goal(&b, &g);
    assert_true(np_board_apply_moves(&b, &g, "D D D", &bad) == NP_EINVAL);
    assert_int_equal(bad, 4);
    want = parse_ok("3 1 2 6 4 5 0 7 8", 0, 0, 3, 3, NULL);
    assert_same_board(&b, &want);

    /* off the left, after a legal down */
    np_board_goal(&b, &g);
    assert_true(np_board_apply_moves(&b, &g, "DL", &bad) == NP_EINVAL);
    assert_int_equal(bad, 1);

    /* a letter that is no move */
    np_board_goal(&b, &g);
    assert_true(np_board_apply_moves(&b, &g, "RXD", &bad) == NP_EINVAL);
    assert_int_equal(bad, 1);
    want = parse_ok("1 0 2 3 4 5 6 7 8", 0, 0, 3, 3, NULL);
    assert_same_board(&b, &want);

    /* NULL bad_index is allowed */
    np_board_goal(&b, &g);
    assert_true(np_board_apply_moves(&b, &g, "L", NULL) == NP_EINVAL);

    /* np_board_move itself */
    np_board_goal(&b, &g);
    assert_true(np_board_move(&b, &g, NP_UP) == NP_EINVAL);
    assert_true(np_board_move(&b, &g, NP_LEFT) == NP_EINVAL);
    assert_true(np_board_move(&b, &g, 4) == NP_EINVAL);
    assert_true(np_board_move(&b, &g, -1) == NP_EINVAL);
    assert_int_equal(np_board_move(&b, &g, NP_DOWN), NP_OK);
    assert_int_equal(b.blank, 3);
}

static void test_dir_chars(void **state)
{
    (void)state;
    static const char letters[] = "ULRD";
    for (int d = 0; d < 4; d++) {
        assert_int_equal(np_dir_char(d), letters[d]);
        assert_int_equal(np_dir_from_char(letters[d]), d);
        assert_int_equal(np_dir_from_char((char)(letters[d] + 'a' - 'A')), d);
        assert_int_equal(NP_DIR_OPPOSITE(NP_DIR_OPPOSITE(d)), d);
    }
    assert_int_equal(NP_DIR_OPPOSITE(NP_UP), NP_DOWN);
    assert_int_equal(NP_DIR_OPPOSITE(NP_LEFT), NP_RIGHT);
    assert_int_equal(np_dir_from_char('x'), -1);
    assert_int_equal(np_dir_from_char(0), -1);
}

/* ---- the data files ------------------------------------------------------- */

static void check_data_file(const char *name, int side, int want_boards)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", NPUZZLE_DATA_DIR, name);
    FILE *f = fopen(path, "r");
    if (!f)
        print_error("cannot open %s\n", path);
    assert_non_null(f);
    np_geom g;
    assert_int_equal(np_geom_init(&g, side, side, NP_GOAL_BLANK_FIRST), NP_OK);
    char line[1024];
    int boards = 0, lineno = 0;
    while (fgets(line, sizeof line, f)) {
        lineno++;
        np_board b;
        np_board_meta meta;
        char err[256];
        int rc = np_board_parse(&b, &meta, line, side, side, err, sizeof err);
        if (rc < 0)
            print_error("%s:%d: %s\n", path, lineno, err);
        assert_true(rc >= 0);
        if (rc == 0)
            continue;
        boards++;
        assert_true(meta.id[0] != 0);
        assert_true(meta.opt >= 0);
        assert_true(np_board_solvable(&b, &g));
        int md = np_h_manhattan(&b, &g);
        assert_true(md <= meta.opt);
        assert_int_equal((meta.opt - md) & 1, 0);
        assert_true(np_h_linear_conflict(&b, &g) <= meta.opt);
    }
    fclose(f);
    assert_int_equal(boards, want_boards);
}

static void test_data_files(void **state)
{
    (void)state;
    check_data_file("korf100.txt", 4, 100);
    check_data_file("korf-felner-24.txt", 5, 50);
    check_data_file("hardest15.txt", 4, 17);
    check_data_file("hardest8.txt", 3, 2);
}

/* The generator against its published definitions, computed independently:
 * xoshiro256** from the state {1, 2, 3, 4} and SplitMix64 from seed 0 (whose
 * first output, 0xe220a8397b1dcdaf, is the reference value). np_rng_below
 * stays below n and is uniform, also for n = 3 * 2^62, where a plain
 * remainder would make the values below 2^62 twice as likely (1/2, not 1/3). */
static void test_rng(void **state)
{
    (void)state;
    np_rng r = {{1, 2, 3, 4}};
    static const uint64_t want[5] = {11520, 0, 1509978240, UINT64_C(1215971899390074240),
                                     UINT64_C(1216172134540287360)};
    for (int i = 0; i < 5; i++)
        assert_true(np_rng_next(&r) == want[i]);
    np_rng_seed(&r, 0);
    assert_true(r.s[0] == UINT64_C(0xe220a8397b1dcdaf));
    assert_true(r.s[3] == UINT64_C(0xf88bb8a8724c81ec));
    np_rng_seed(&r, 42);
    int counts[3] = {0}, low = 0;
    const uint64_t big = UINT64_C(3) << 62;
    for (int i = 0; i < 30000; i++) {
        uint64_t v = np_rng_below(&r, 3);
        assert_true(v < 3);
        counts[v]++;
        uint64_t w = np_rng_below(&r, big);
        assert_true(w < big);
        low += w < (UINT64_C(1) << 62);
        assert_true(np_rng_below(&r, 1) == 0);
    }
    for (int v = 0; v < 3; v++)
        assert_true(counts[v] > 9400 && counts[v] < 10600); /* 10,000 +- 8 sd */
    assert_true(low > 9400 && low < 10600);                 /* 10,000 +- 7 sd; biased: 15,000 */
}

/* np_board_random: every board valid and solvable for its goal, the same seed
 * the same boards, and uniform: on 2x2 (12 solvable boards) and 2x3 (360)
 * each board is drawn about equally often. A shuffle drawing j from 0..n-1
 * instead of 0..i, or a fix-up that is not one-to-one, fails this. */
static int board_index(const np_board *b, int n)
{
    /* Lehmer rank of the tiles, counted here */
    int r = 0;
    for (int i = 0; i < n; i++) {
        int smaller = 0;
        for (int j = i + 1; j < n; j++)
            smaller += b->tiles[j] < b->tiles[i];
        r = r * (n - i) + smaller;
    }
    return r;
}

static void test_random_boards(void **state)
{
    (void)state;
    static const int shapes[][3] = {{2, 2, 24000}, {2, 3, 72000}};
    for (int s = 0; s < 2; s++)
        for (int goal = 0; goal < 2; goal++) {
            np_geom g;
            assert_int_equal(np_geom_init(&g, shapes[s][0], shapes[s][1], (np_goal)goal), NP_OK);
            const int n = g.cells, draws = shapes[s][2];
            int nperm = 1;
            for (int i = 2; i <= n; i++)
                nperm *= i;
            static int seen[720];
            memset(seen, 0, sizeof seen);
            np_rng r;
            np_rng_seed(&r, 7);
            for (int d = 0; d < draws; d++) {
                np_board b;
                np_board_random(&b, &g, &r);
                assert_true(np_board_valid(&b, &g));
                assert_int_equal(b.tiles[b.blank], 0);
                assert_true(np_board_solvable(&b, &g));
                seen[board_index(&b, n)]++;
            }
            const double expect = (double)draws / (nperm / 2); /* its variance about expect */
            int boards = 0;
            for (int i = 0; i < nperm; i++) {
                if (!seen[i])
                    continue;
                boards++;
                if ((seen[i] - expect) * (seen[i] - expect) > 36 * expect) /* 6 sd */
                    fail_msg("%dx%d goal %d: board %d drawn %d times, expected %.0f", g.rows,
                             g.cols, goal, i, seen[i], expect);
            }
            assert_int_equal(boards, nperm / 2);
        }
    /* the same seed, the same boards; another seed, others */
    np_geom g;
    assert_int_equal(np_geom_init(&g, 4, 4, NP_GOAL_BLANK_FIRST), NP_OK);
    np_rng a, b, c;
    np_rng_seed(&a, 1);
    np_rng_seed(&b, 1);
    np_rng_seed(&c, 2);
    int differ = 0;
    for (int i = 0; i < 100; i++) {
        np_board x, y, z;
        np_board_random(&x, &g, &a);
        np_board_random(&y, &g, &b);
        np_board_random(&z, &g, &c);
        assert_memory_equal(x.tiles, y.tiles, 16);
        differ += memcmp(x.tiles, z.tiles, 16) != 0;
    }
    assert_true(differ > 95);
}

/* The canonical UTF-8 encoding of code point c (RFC 3629, section 3) at out:
 * the reference the checker is held to. @return its length. */
static size_t utf8_encode(uint32_t c, unsigned char *out)
{
    if (c < 0x80) {
        out[0] = (unsigned char)c;
        return 1;
    }
    if (c < 0x800) {
        out[0] = (unsigned char)(0xc0 | c >> 6);
        out[1] = (unsigned char)(0x80 | (c & 0x3f));
        return 2;
    }
    if (c < 0x10000) {
        out[0] = (unsigned char)(0xe0 | c >> 12);
        out[1] = (unsigned char)(0x80 | (c >> 6 & 0x3f));
        out[2] = (unsigned char)(0x80 | (c & 0x3f));
        return 3;
    }
    out[0] = (unsigned char)(0xf0 | c >> 18);
    out[1] = (unsigned char)(0x80 | (c >> 12 & 0x3f));
    out[2] = (unsigned char)(0x80 | (c >> 6 & 0x3f));
    out[3] = (unsigned char)(0x80 | (c & 0x3f));
    return 4;
}

static bool is_scalar(uint32_t c)
{
    return c <= 0x10ffff && (c < 0xd800 || c > 0xdfff);
}

/* The UTF-8 check the library and the command line share (np_utf8.h): every
 * string of one, two and three bytes is accepted exactly when it is a
 * concatenation of encodings of scalar values, built here by encoding, and
 * every four-byte encoding is accepted while those of surrogates and of code
 * points past U+10FFFF are refused. */
static void test_utf8_check(void **state)
{
    (void)state;
    /* valid[len - 1]: a bit per string of len bytes, big-endian */
    uint8_t *valid[3];
    for (int len = 1; len <= 3; len++)
        valid[len - 1] = calloc((size_t)1 << (8 * len - 3), 1);
    unsigned char enc[4];
    static uint32_t units[0x10000][2]; /* the scalars below U+10000: (length, bytes) */
    size_t nunits = 0;
    for (uint32_t c = 0; c < 0x10000; c++) {
        if (!is_scalar(c))
            continue;
        size_t k = utf8_encode(c, enc);
        uint32_t v = 0;
        for (size_t i = 0; i < k; i++)
            v = v << 8 | enc[i];
        units[nunits][0] = (uint32_t)k;
        units[nunits++][1] = v;
    }
    /* every concatenation of up to three bytes */
    for (size_t a = 0; a < nunits; a++) {
        uint32_t ka = units[a][0], va = units[a][1];
        valid[ka - 1][va >> 3] |= (uint8_t)(1u << (va & 7));
        if (ka == 3)
            continue;
        /* units run in code point order: 128 of one byte, then 1920 of two */
        for (size_t b = 0; b < (ka == 1 ? 2048u : 128u); b++) {
            uint32_t kb = units[b][0], vb = units[b][1];
            uint32_t v = va << (8 * kb) | vb;
            valid[ka + kb - 1][v >> 3] |= (uint8_t)(1u << (v & 7));
            if (ka + kb == 3)
                continue;
            for (uint32_t c = 0; c < 0x80; c++) { /* the third: a byte below 0x80 */
                uint32_t w = v << 8 | c;
                valid[2][w >> 3] |= (uint8_t)(1u << (w & 7));
            }
        }
    }
    size_t accepted[3] = {0, 0, 0}, mismatches = 0;
    for (int len = 1; len <= 3; len++)
        for (uint32_t v = 0; v < 1u << (8 * len); v++) {
            /* past len: continuation bytes, which a check that reads beyond
             * what it is given could take for the rest of a sequence */
            char s[4] = {(char)0x80, (char)0x80, (char)0x80, (char)0x80};
            for (int i = 0; i < len; i++)
                s[i] = (char)(v >> (8 * (len - 1 - i)));
            bool want = valid[len - 1][v >> 3] >> (v & 7) & 1;
            bool got = np__utf8_valid(s, (size_t)len);
            accepted[len - 1] += got;
            if (want != got && mismatches++ < 5)
                print_error("%d bytes %06x: the check says %d, the encodings %d\n", len, v, got,
                            want);
        }
    assert_int_equal(mismatches, 0);
    /* 128 one-byte strings; 128^2 + 1920 two-byte ones; 128^3 + 2 * 128 * 1920 + 61,440 three */
    assert_int_equal(accepted[0], 128);
    assert_int_equal(accepted[1], 128 * 128 + 1920);
    assert_int_equal(accepted[2], 128 * 128 * 128 + 2 * 128 * 1920 + 61440);
    for (int len = 1; len <= 3; len++)
        free(valid[len - 1]);

    /* four bytes: every encoding of U+10000..U+10FFFF, and what lies beside */
    for (uint32_t c = 0x10000; c <= 0x10ffff; c++) {
        utf8_encode(c, enc);
        assert_true(np__utf8_valid((const char *)enc, 4));
        assert_int_equal(np__utf8_sequence(enc, 4), 4);
        assert_int_equal(np__utf8_sequence(enc, 3), 0); /* cut short */
        for (int i = 1; i < 4; i++) { /* each continuation byte made a non-continuation one */
            unsigned char bad[4];
            memcpy(bad, enc, 4);
            bad[i] = (unsigned char)(c & 1 ? 0x7f : 0xc0);
            assert_false(np__utf8_valid((const char *)bad, 4));
        }
    }
    utf8_encode(0x110000, enc);
    assert_false(np__utf8_valid((const char *)enc, 4));
    const unsigned char overlong4[4] = {0xf0, 0x8f, 0xbf, 0xbf}; /* U+FFFF in four bytes */
    assert_false(np__utf8_valid((const char *)overlong4, 4));
    for (unsigned lead = 0xf5; lead <= 0xff; lead++) {
        const unsigned char s4[4] = {(unsigned char)lead, 0x80, 0x80, 0x80};
        assert_false(np__utf8_valid((const char *)s4, 4));
    }
    /* a surrogate encoded as three bytes, as CESU-8 writes them */
    utf8_encode(0xd800, enc);
    assert_false(np__utf8_valid((const char *)enc, 3));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse_separators),
        cmocka_unit_test(test_utf8_check),
        cmocka_unit_test(test_geom_labels),
        cmocka_unit_test(test_rng),
        cmocka_unit_test(test_random_boards),
        cmocka_unit_test(test_parse_comment_meta),
        cmocka_unit_test(test_parse_no_board),
        cmocka_unit_test(test_parse_size_inferred),
        cmocka_unit_test(test_parse_size_out_of_range),
        cmocka_unit_test(test_parse_size_explicit),
        cmocka_unit_test(test_parse_bad_count_explicit),
        cmocka_unit_test(test_parse_bad_count_inferred),
        cmocka_unit_test(test_parse_too_many_numbers),
        cmocka_unit_test(test_parse_duplicate_tile),
        cmocka_unit_test(test_parse_missing_tile),
        cmocka_unit_test(test_parse_out_of_range),
        cmocka_unit_test(test_parse_negative),
        cmocka_unit_test(test_parse_not_integer),
        cmocka_unit_test(test_parse_bad_opt),
        cmocka_unit_test(test_parse_size_word),
        cmocka_unit_test(test_parse_bad_id),
        cmocka_unit_test(test_geom_init),
        cmocka_unit_test(test_format_round_trip),
        cmocka_unit_test(test_format_truncates),
        cmocka_unit_test(test_parity_2x3),
        cmocka_unit_test(test_parity_3x3),
        cmocka_unit_test(test_parity_random_walks),
        cmocka_unit_test(test_bfs_3x3_heuristics),
        cmocka_unit_test(test_linear_conflict_values),
        cmocka_unit_test(test_bfs_small_heuristics),
        cmocka_unit_test(test_mirror_goal_and_involution),
        cmocka_unit_test(test_mirror_preserves_distance),
        cmocka_unit_test(test_apply_moves),
        cmocka_unit_test(test_apply_moves_illegal),
        cmocka_unit_test(test_dir_chars),
        cmocka_unit_test(test_data_files),
    };
    return cmocka_run_group_tests(tests, NULL, oracles_free);
}
