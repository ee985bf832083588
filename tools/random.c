/* random.c - the `npuzzle random` subcommand: uniformly random solvable boards from a seed. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "npuzzle.h"

void usage_random(void)
{
    printf("usage: npuzzle random --size RxC [-n N] [--seed S]\n"
           "                      [--goal blank-first|blank-last]\n"
           "\n"
           "Print N uniformly random solvable boards of R x C, one per line in the input\n"
           "format of npuzzle solve, each with a comment '# id=I' (I = 1..N; and\n"
           "'size=RxC' when R and C differ, so that solve needs no --size). The same\n"
           "size, goal and seed give the same boards on every machine (xoshiro256**\n"
           "seeded with S; a board is a uniform shuffle, made solvable by swapping two\n"
           "tiles when it is not, which keeps every solvable board equally likely).\n"
           "The first line is a comment with the command that reproduces the set.\n"
           "\n"
           "options:\n"
           "  -s, --size RxC     board size (2..8 each side), e.g. 4x4; required\n"
           "  -n, --count N      how many boards (default 1)\n"
           "      --seed S       the seed, a non-negative integer (default 1)\n"
           "      --goal G       blank-first (default, Korf's) or blank-last\n"
           "  -h, --help         this text\n"
           "\n"
           "Exit codes: 0 done, 2 bad usage, 3 output error.\n");
}

int cmd_random(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"size", required_argument, NULL, 's'}, {"count", required_argument, NULL, 'n'},
        {"seed", required_argument, NULL, 'S'}, {"goal", required_argument, NULL, 'g'},
        {"help", no_argument, NULL, 'h'},       {NULL, 0, NULL, 0},
    };
    int rows = 0, cols = 0, c;
    uint64_t count = 1, seed = 1;
    np_goal goal = NP_GOAL_BLANK_FIRST;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":s:n:h", longopts, NULL)) != -1) {
        switch (c) {
        case 's':
            if (!cli_parse_size(optarg, &rows, &cols)) {
                fprintf(stderr, "npuzzle random: bad --size '%s' (RxC, 2..8 each side)\n", optarg);
                return EXIT_USAGE;
            }
            break;
        case 'n':
            if (!cli_parse_u64("random", "-n", optarg, &count))
                return EXIT_USAGE;
            break;
        case 'S':
            if (!cli_parse_u64("random", "--seed", optarg, &seed))
                return EXIT_USAGE;
            break;
        case 'g':
            if (np_goal_parse(&goal, optarg) != NP_OK) {
                fprintf(stderr, "npuzzle random: unknown goal '%s' (blank-first or blank-last)\n",
                        optarg);
                return EXIT_USAGE;
            }
            break;
        case 'h': usage_random(); return EXIT_OK;
        default: return cli_option_error("random", c, argv, longopts);
        }
    }
    if (optind != argc) {
        fprintf(stderr, "npuzzle random: unexpected argument '%s' (see npuzzle help random)\n",
                argv[optind]);
        return EXIT_USAGE;
    }
    if (!rows) {
        fprintf(stderr, "npuzzle random: --size RxC is required (see npuzzle help random)\n");
        return EXIT_USAGE;
    }
    np_geom g;
    np_geom_init(&g, rows, cols, goal); /* the size was checked above */
    np_rng rng;
    np_rng_seed(&rng, seed);
    printf("# npuzzle random --size %dx%d -n %llu --seed %llu --goal %s\n", rows, cols,
           (unsigned long long)count, (unsigned long long)seed, np_goal_name(goal));
    /* A board that is not square says its size, which its tile count does
     * not tell (16 tiles: 4x4 or 2x8). */
    char size_word[16] = "";
    if (rows != cols)
        snprintf(size_word, sizeof size_word, " size=%dx%d", rows, cols);
    for (uint64_t i = 1; i - 1 < count; i++) { /* (i <= count never ends at count = 2^64 - 1) */
        np_board b;
        char line[4 * NP_MAX_CELLS];
        np_board_random(&b, &g, &rng);
        np_board_format(line, sizeof line, &b);
        if (printf("%s  # id=%llu%s\n", line, (unsigned long long)i, size_word) < 0) {
            cli_stdout_failed(errno);
            break;
        }
    }
    return EXIT_OK; /* main() reports a write error on standard output (exit 3) */
}
