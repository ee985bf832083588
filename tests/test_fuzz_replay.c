/* test_fuzz_replay.c - replays the fuzzers' seed corpora and every input that once crashed.
 *
 * The libFuzzer harnesses of tests/fuzz/ are compiled in here as plain functions
 * (no clang, no libFuzzer), and each file of tests/fuzz/corpus/NAME and
 * tests/fuzz/regress/NAME is fed to them once. A harness aborts on any broken
 * promise, which fails this test; under the sanitizer build it also catches the
 * memory errors the fuzzer found. New crashes found by scripts/fuzz go into
 * tests/fuzz/regress/NAME/. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>

#include <cmocka.h>

#define LLVMFuzzerTestOneInput fuzz_board_parse_one
#include "fuzz/fuzz_board_parse.c"
#undef LLVMFuzzerTestOneInput
#undef CHECK

#define LLVMFuzzerTestOneInput fuzz_pdb_open_one
#include "fuzz/fuzz_pdb_open.c"
#undef LLVMFuzzerTestOneInput
#undef CHECK

#define LLVMFuzzerTestOneInput fuzz_results_parse_one
#include "fuzz/fuzz_results_parse.c"
#undef LLVMFuzzerTestOneInput

#ifndef NPUZZLE_DATA_DIR
#define NPUZZLE_DATA_DIR "data"
#endif
#define FUZZ_DIR NPUZZLE_DATA_DIR "/../tests/fuzz"

/* Feed every file of FUZZ_DIR/SUB to `one`. @return the number of files (-1: no directory). */
static int replay(const char *sub, int (*one)(const uint8_t *, size_t))
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", FUZZ_DIR, sub);
    DIR *d = opendir(path);
    if (!d)
        return -1;
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        char file[2048];
        snprintf(file, sizeof file, "%s/%s", path, e->d_name);
        FILE *f = fopen(file, "rb");
        assert_non_null(f);
        uint8_t *buf = NULL;
        size_t len = 0, cap = 0;
        for (;;) {
            if (len == cap) {
                cap = cap ? 2 * cap : 4096;
                uint8_t *grown = realloc(buf, cap);
                if (!grown)
                    free(buf);
                assert_non_null(grown);
                buf = grown;
            }
            size_t got = fread(buf + len, 1, cap - len, f);
            len += got;
            if (got == 0)
                break;
        }
        fclose(f);
        one(buf, len);
        free(buf);
        n++;
    }
    closedir(d);
    return n;
}

static void test_board_corpus(void **state)
{
    (void)state;
    assert_true(replay("corpus/board", fuzz_board_parse_one) >= 5);
    (void)replay("regress/board", fuzz_board_parse_one);
}

static void test_pdb_corpus(void **state)
{
    (void)state;
    assert_true(replay("corpus/pdb", fuzz_pdb_open_one) >= 4);
    (void)replay("regress/pdb", fuzz_pdb_open_one);
}

static void test_results_corpus(void **state)
{
    (void)state;
    assert_true(replay("corpus/results", fuzz_results_parse_one) >= 6);
    (void)replay("regress/results", fuzz_results_parse_one);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_board_corpus),
        cmocka_unit_test(test_pdb_corpus),
        cmocka_unit_test(test_results_corpus),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
