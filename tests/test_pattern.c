/* test_pattern.c - pattern module: parsing partitions, refusing bad ones, the built-in
 * catalogue. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "npuzzle/error.h"
#include "npuzzle/pattern.h"

static char err[512];

/* Parse and expect failure with `code` and a message containing `needle`. */
static void expect_refused(const char *text, int rows, int cols, bool cover, int code,
                           const char *needle)
{
    np_partition p;
    err[0] = '\0';
    int rc = np_partition_parse(&p, text, rows, cols, cover, err, sizeof err);
    if (rc != code || !strstr(err, needle))
        fail_msg("'%s' on %dx%d: rc %d (want %d), message '%s' (want '%s')", text, rows, cols, rc,
                 code, err, needle);
}

/* NULL text reads as "" (pattern.h), the message included: no "(null)". */
static void test_parse_null_text(void **state)
{
    (void)state;
    np_partition p;
    assert_int_equal(np_partition_parse(&p, NULL, 3, 3, false, err, sizeof err), NP_EPARSE);
    assert_null(strstr(err, "null"));
    assert_non_null(strstr(err, "''"));
}

static void test_parse_custom(void **state)
{
    (void)state;
    np_partition p;
    assert_int_equal(np_partition_parse(&p, "3,1,2/ 5 , 4", 3, 3, false, err, sizeof err), NP_OK);
    assert_string_equal(p.name, "custom");
    assert_int_equal(p.rows, 3);
    assert_int_equal(p.cols, 3);
    assert_int_equal(p.npatterns, 2);
    assert_int_equal(p.patterns[0].ntiles, 3);
    assert_int_equal(p.patterns[0].tiles[0], 1); /* sorted */
    assert_int_equal(p.patterns[0].tiles[1], 2);
    assert_int_equal(p.patterns[0].tiles[2], 3);
    assert_int_equal(p.patterns[1].ntiles, 2);
    assert_int_equal(p.patterns[1].tiles[0], 4);
    assert_int_equal(p.patterns[1].tiles[1], 5);
    assert_false(np_partition_covers(&p));

    char buf[64];
    assert_int_equal(np_partition_format(buf, sizeof buf, &p), 9);
    assert_string_equal(buf, "1,2,3/4,5");
    assert_int_equal(np_pattern_format(buf, sizeof buf, &p.patterns[0], '.'), 5);
    assert_string_equal(buf, "1.2.3");
    /* truncation behaves like snprintf */
    assert_int_equal(np_partition_format(buf, 4, &p), 9);
    assert_string_equal(buf, "1,2");
    memset(buf, '#', sizeof buf);
    assert_int_equal(np_partition_format(buf, 8, &p), 9);
    assert_string_equal(buf, "1,2,3/4");
    memset(buf, '#', sizeof buf);
    assert_int_equal(np_pattern_format(buf, 5, &p.patterns[0], ','), 5);
    assert_string_equal(buf, "1,2,");

    /* a covering partition, and parse(format(p)) == p */
    assert_int_equal(np_partition_parse(&p, "8,7,6,5/4,3,2,1", 3, 3, true, err, sizeof err), NP_OK);
    assert_true(np_partition_covers(&p));
    np_partition_format(buf, sizeof buf, &p);
    assert_string_equal(buf, "5,6,7,8/1,2,3,4");
    np_partition q;
    assert_int_equal(np_partition_parse(&q, buf, 3, 3, true, err, sizeof err), NP_OK);
    assert_memory_equal(&p, &q, sizeof p);

    /* one tile, a rectangular board */
    assert_int_equal(np_partition_parse(&p, "11", 3, 4, false, err, sizeof err), NP_OK);
    assert_int_equal(p.npatterns, 1);
    assert_int_equal(p.patterns[0].tiles[0], 11);
}

static void test_refuse_overlap(void **state)
{
    (void)state;
    expect_refused("1,2,3/3,4", 3, 3, false, NP_EINVAL,
                   "tile 3 is in both pattern 1 and pattern 2");
    expect_refused("1,2,2", 3, 3, false, NP_EINVAL, "tile 2 appears twice");
}

static void test_refuse_blank(void **state)
{
    (void)state;
    expect_refused("0,1,2", 3, 3, false, NP_EINVAL, "tile 0 is the blank");
    expect_refused("1,2/0", 3, 3, false, NP_EINVAL, "blank");
}

static void test_refuse_unknown_tile(void **state)
{
    (void)state;
    expect_refused("1,9", 3, 3, false, NP_EINVAL, "tile 9 is not on a 3x3 board");
    expect_refused("16", 4, 4, false, NP_EINVAL, "tile 16 is not on a 4x4 board");
    expect_refused("1,300", 4, 4, false, NP_EPARSE, "'300' is not a tile number");
}

static void test_refuse_empty(void **state)
{
    (void)state;
    expect_refused("", 3, 3, false, NP_EPARSE, "pattern 1 is empty");
    expect_refused("1,2//3", 3, 3, false, NP_EPARSE, "pattern 2 is empty");
    expect_refused("/1", 3, 3, false, NP_EPARSE, "pattern 1 is empty");
    expect_refused("1/", 3, 3, false, NP_EPARSE, "pattern 2 is empty");
    expect_refused("1,,2", 3, 3, false, NP_EPARSE, "missing tile number");
    expect_refused("1,2,", 3, 3, false, NP_EPARSE, "missing tile number");
}

static void test_refuse_non_integer(void **state)
{
    (void)state;
    expect_refused("1,a", 3, 3, false, NP_EPARSE, "'a' is not a tile number");
    expect_refused("1.5", 3, 3, false, NP_EPARSE, "is not a tile number");
    expect_refused("1,-2", 3, 3, false, NP_EPARSE, "'-2' is not a tile number");
    expect_refused("1 2", 3, 3, false, NP_EPARSE, "is not a tile number");
    expect_refused("2x", 3, 3, false, NP_EPARSE, "'2x' is not a tile number");
}

static void test_refuse_missing_tile(void **state)
{
    (void)state;
    expect_refused("1,2,3/5,6,7,8", 3, 3, true, NP_EINVAL, "tile 4 is in no pattern");
    expect_refused("1,2,3,4,5,6,7/8,9,10,11,12,13,14", 4, 4, true, NP_EINVAL,
                   "tile 15 is in no pattern");
    /* without `cover` a subset is fine */
    np_partition p;
    assert_int_equal(np_partition_parse(&p, "1,2,3/5,6,7,8", 3, 3, false, err, sizeof err), NP_OK);
}

static void test_refuse_too_many(void **state)
{
    (void)state;
    expect_refused("1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17", 5, 5, false, NP_EPARSE,
                   "more than 16 tiles");
    expect_refused("1/2/3/4/5/6/7/8/9/10/11/12/13/14/15/16/17", 5, 5, false, NP_EPARSE,
                   "too many patterns");
    expect_refused("1", 1, 9, false, NP_EINVAL, "unsupported board size");
}

/* Every catalogue entry parses and covers its board's tiles exactly once. */
static void test_catalog_covers(void **state)
{
    (void)state;
    int n = 0;
    np_partition p;
    for (; np_catalog_get(&p, n) == NP_OK; n++) {
        int cells = p.rows * p.cols;
        int count[NP_MAX_CELLS] = {0};
        for (int i = 0; i < p.npatterns; i++)
            for (int j = 0; j < p.patterns[i].ntiles; j++) {
                int t = p.patterns[i].tiles[j];
                assert_true(t >= 1 && t < cells);
                count[t]++;
            }
        for (int t = 1; t < cells; t++)
            if (count[t] != 1)
                fail_msg("%s: tile %d appears %d times", p.name, t, count[t]);
        assert_int_equal(np_partition_check(&p, true, err, sizeof err), NP_OK);
    }
    assert_true(n >= 5);
    assert_true(np_catalog_get(&p, -1) == NP_ENOTFOUND);
    assert_true(np_catalog_get(&p, n) == NP_ENOTFOUND);

    const char *names[] = {"8:4-4", "15:5-5-5", "15:6-6-3", "15:7-8", "24:6-6-6-6"};
    const int sizes[] = {3, 4, 4, 4, 5};
    const int npat[] = {2, 3, 3, 2, 4};
    for (int i = 0; i < 5; i++) {
        assert_int_equal(np_catalog_find(&p, names[i], err, sizeof err), NP_OK);
        assert_string_equal(p.name, names[i]);
        assert_int_equal(p.rows, sizes[i]);
        assert_int_equal(p.cols, sizes[i]);
        assert_int_equal(p.npatterns, npat[i]);
    }
}

static void expect_catalog(const char *name, const char *want)
{
    np_partition p;
    char buf[256];
    assert_int_equal(np_catalog_find(&p, name, err, sizeof err), NP_OK);
    np_partition_format(buf, sizeof buf, &p);
    assert_string_equal(buf, want);
}

static void test_catalog_contents(void **state)
{
    (void)state;
    expect_catalog("8:4-4", "1,2,3,4/5,6,7,8");
    expect_catalog("15:7-8", "1,2,3,4,5,6,7/8,9,10,11,12,13,14,15");
    expect_catalog("24:6-6-6-6", "1,2,5,6,7,12/3,4,8,9,13,14/10,11,15,16,20,21/17,18,19,22,23,24");
    np_partition p;
    assert_int_equal(np_catalog_find(&p, "15:6-6-3", err, sizeof err), NP_OK);
    assert_int_equal(p.patterns[0].ntiles + p.patterns[1].ntiles + p.patterns[2].ntiles, 15);
    assert_int_equal(p.patterns[2].ntiles, 3);
    assert_int_equal(np_catalog_find(&p, "15:5-5-5", err, sizeof err), NP_OK);
    for (int i = 0; i < 3; i++)
        assert_int_equal(p.patterns[i].ntiles, 5);
    assert_non_null(strstr(np_catalog_text(), "15:7-8"));
}

static void test_catalog_unknown(void **state)
{
    (void)state;
    np_partition p;
    assert_true(np_catalog_find(&p, "15:9-9", err, sizeof err) == NP_ENOTFOUND);
    assert_non_null(strstr(err, "no partition named '15:9-9'"));
    assert_non_null(strstr(err, "15:7-8")); /* lists the known names */
}

static void test_default(void **state)
{
    (void)state;
    np_partition p;
    assert_int_equal(np_partition_default(&p, 3, 3), NP_OK);
    assert_string_equal(p.name, "8:4-4");
    assert_int_equal(np_partition_default(&p, 4, 4), NP_OK);
    assert_string_equal(p.name, "15:7-8");
    assert_int_equal(np_partition_default(&p, 5, 5), NP_OK);
    assert_string_equal(p.name, "24:6-6-6-6");
    assert_true(np_partition_default(&p, 3, 4) == NP_ENOTFOUND);
    assert_true(np_partition_default(&p, 6, 6) == NP_ENOTFOUND);
}

static void test_resolve(void **state)
{
    (void)state;
    np_partition p;
    assert_int_equal(np_partition_resolve(&p, "15:7-8", 4, 4, true, err, sizeof err), NP_OK);
    assert_string_equal(p.name, "15:7-8");
    assert_true(np_partition_resolve(&p, "15:7-8", 3, 3, true, err, sizeof err) == NP_EMISMATCH);
    assert_non_null(strstr(err, "is for a 4x4 board, not 3x3"));
    assert_int_equal(np_partition_resolve(&p, "1,2/3", 3, 3, false, err, sizeof err), NP_OK);
    assert_string_equal(p.name, "custom");
    assert_true(np_partition_resolve(&p, "1,2/3", 3, 3, true, err, sizeof err) == NP_EINVAL);
    assert_true(np_partition_resolve(&p, "nonsense", 3, 3, true, err, sizeof err) == NP_ENOTFOUND);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse_null_text),
        cmocka_unit_test(test_parse_custom),
        cmocka_unit_test(test_refuse_overlap),
        cmocka_unit_test(test_refuse_blank),
        cmocka_unit_test(test_refuse_unknown_tile),
        cmocka_unit_test(test_refuse_empty),
        cmocka_unit_test(test_refuse_non_integer),
        cmocka_unit_test(test_refuse_missing_tile),
        cmocka_unit_test(test_refuse_too_many),
        cmocka_unit_test(test_catalog_covers),
        cmocka_unit_test(test_catalog_contents),
        cmocka_unit_test(test_catalog_unknown),
        cmocka_unit_test(test_default),
        cmocka_unit_test(test_resolve),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
