/* suites.h - one cmocka program, two Meson suites: its first argument picks the group to run.
 *
 * A test program registered in both suites (tests/meson.build) is run as
 * `PROGRAM fast` in suite 'fast' and `PROGRAM slow` in suite 'slow'; with no
 * argument it runs both groups. 'slow' holds what needs real 15-puzzle
 * tables or a long search, so that `meson test --suite fast` answers in
 * under a minute. */
#ifndef NPUZZLE_TESTS_SUITES_H
#define NPUZZLE_TESTS_SUITES_H

#include <stdio.h>
#include <string.h>

static inline int np_test_run_suites(int argc, char **argv, const struct CMUnitTest *fast,
                                     size_t nfast, CMFixtureFunction fast_setup,
                                     CMFixtureFunction fast_teardown, const struct CMUnitTest *slow,
                                     size_t nslow, CMFixtureFunction slow_setup,
                                     CMFixtureFunction slow_teardown)
{
    const char *which = argc > 1 ? argv[1] : "";
    if (*which && strcmp(which, "fast") != 0 && strcmp(which, "slow") != 0) {
        fprintf(stderr, "usage: %s [fast|slow]\n", argv[0]);
        return 2;
    }
    int failed = 0;
    if (strcmp(which, "slow") != 0)
        failed += _cmocka_run_group_tests("fast", fast, nfast, fast_setup, fast_teardown);
    if (strcmp(which, "fast") != 0)
        failed += _cmocka_run_group_tests("slow", slow, nslow, slow_setup, slow_teardown);
    return failed;
}

/* NP_TEST_SUITES(argc, argv, fast_tests, setup, teardown, slow_tests, setup, teardown) */
#define NP_TEST_SUITES(argc, argv, fast, fs, ft, slow, ss, st) \
    np_test_run_suites(argc, argv, fast, sizeof(fast) / sizeof((fast)[0]), fs, ft, slow, \
                       sizeof(slow) / sizeof((slow)[0]), ss, st)

#endif
