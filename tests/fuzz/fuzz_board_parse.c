/* fuzz_board_parse.c - libFuzzer harness: np_board_parse on arbitrary bytes, at several sizes.
 *
 * The input is one line (a NUL ends it early, as it would for a C string).
 * Each size must either refuse the line with NP_EPARSE and a message, find no
 * board in it, or produce a valid board that survives np_board_format ->
 * np_board_parse unchanged. The same bytes are then replayed as a move string
 * on the goal and on the parsed board. Any broken promise aborts. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "npuzzle.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(cond) \
    do { \
        if (!(cond)) { \
            fprintf(stderr, "fuzz_board_parse: check failed: %s (line %d)\n", #cond, __LINE__); \
            abort(); \
        } \
    } while (0)

static const int sizes[][2] = {{0, 0}, {2, 2}, {3, 3}, {4, 4}, {5, 5},
                               {8, 8}, {2, 3}, {3, 5}, {8, 2}};

static void check_board(const np_board *b, const np_board_meta *meta, int rows, int cols,
                        const char *line)
{
    np_geom g;
    CHECK(np_geom_init(&g, b->rows, b->cols, NP_GOAL_BLANK_FIRST) == NP_OK);
    if (rows)
        CHECK(b->rows == rows && b->cols == cols);
    CHECK(np_board_valid(b, &g));
    CHECK(strlen(meta->id) < sizeof meta->id);
    CHECK(meta->opt >= -1);

    /* format -> parse round trip, also through truncated buffers */
    char buf[NP_MAX_CELLS * 4 + 8];
    int need = np_board_format(buf, sizeof buf, b);
    CHECK(need > 0 && (size_t)need < sizeof buf && strlen(buf) == (size_t)need);
    for (size_t cut = 0; cut < 8; cut++) {
        char small[8];
        memset(small, 'x', sizeof small);
        CHECK(np_board_format(small, cut, b) == need);
        if (cut)
            CHECK(strlen(small) == ((size_t)need < cut ? (size_t)need : cut - 1));
    }
    np_board b2;
    np_board_meta m2;
    char err[256];
    /* (formatted, the board says no size: parsed at its own, which a size= word may have set) */
    CHECK(np_board_parse(&b2, &m2, buf, b->rows, b->cols, err, sizeof err) == 1);
    CHECK(b2.rows == b->rows && b2.cols == b->cols && b2.blank == b->blank);
    CHECK(memcmp(b2.tiles, b->tiles, (size_t)g.cells) == 0);
    CHECK(m2.id[0] == 0 && m2.opt == -1);

    /* derived facts stay consistent */
    np_board work = *b;
    (void)np_board_solvable(b, &g);
    CHECK(np_board_manhattan(b, &g) >= 0);
    if (g.square) {
        np_board m;
        np_board_mirror(&m, b, &g);
        CHECK(np_board_valid(&m, &g));
        CHECK(np_board_solvable(&m, &g) == np_board_solvable(b, &g));
    }
    size_t bad = 0;
    if (np_board_apply_moves(&work, &g, line, &bad) != NP_OK)
        CHECK(bad < strlen(line));
    CHECK(np_board_valid(&work, &g));
    CHECK(np_board_solvable(&work, &g) == np_board_solvable(b, &g));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *line = malloc(size + 1);
    if (!line)
        return 0;
    memcpy(line, data, size);
    line[size] = 0;
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        int rows = sizes[s][0], cols = sizes[s][1];
        np_board b;
        np_board_meta meta;
        char err[128];
        memset(err, 'x', sizeof err);
        int rc = np_board_parse(&b, &meta, line, rows, cols, err, sizeof err);
        if (rc == 1) {
            check_board(&b, &meta, rows, cols, line);
        } else if (rc == 0) {
            CHECK(err[0] == 0);
        } else {
            CHECK(rc == NP_EPARSE);
            CHECK(memchr(err, 0, sizeof err) != NULL && err[0] != 0);
        }
        /* a tiny message buffer must be NUL-terminated too, and NULL meta/err allowed */
        char tiny[4];
        int rc2 = np_board_parse(&b, NULL, line, rows, cols, tiny, sizeof tiny);
        CHECK(rc2 == rc && memchr(tiny, 0, sizeof tiny) != NULL);
        CHECK(np_board_parse(&b, NULL, line, rows, cols, NULL, 0) == rc);
    }
    /* the bytes as a move string from the goal of a few geometries */
    static const int geo[][2] = {{3, 3}, {4, 4}, {2, 5}};
    for (int k = 0; k < 3; k++) {
        np_geom g;
        np_board b;
        CHECK(np_geom_init(&g, geo[k][0], geo[k][1], (np_goal)(k & 1)) == NP_OK);
        np_board_goal(&b, &g);
        size_t bad = (size_t)-1;
        int rc = np_board_apply_moves(&b, &g, line, &bad);
        CHECK(rc == NP_OK || (rc == NP_EINVAL && bad < size));
        CHECK(np_board_valid(&b, &g) && np_board_solvable(&b, &g));
    }
    free(line);
    return 0;
}
