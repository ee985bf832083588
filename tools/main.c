/* main.c - the npuzzle command: dispatches to one subcommand per file. */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "npuzzle.h"

static const struct {
    const char *name;
    int (*run)(int, char **);
    void (*usage)(void);
    const char *summary;
} commands[] = {
    {"solve", cmd_solve, usage_solve, "solve boards optimally (IDA*, A*, weighted)"},
    {"gen", cmd_gen, usage_gen, "build pattern databases"},
    {"info", cmd_info, usage_info, "describe and verify a pattern database file"},
    {"verify", cmd_verify, usage_verify, "check answers by replaying their moves (no search)"},
    {"random", cmd_random, usage_random, "print uniformly random solvable boards from a seed"},
};
#define NCOMMANDS (sizeof commands / sizeof commands[0])

static void usage_main(FILE *out)
{
    fprintf(out, "usage: npuzzle COMMAND [OPTIONS] [ARGS]\n\ncommands:\n");
    for (size_t i = 0; i < NCOMMANDS; i++)
        fprintf(out, "  %-8s %s\n", commands[i].name, commands[i].summary);
    fprintf(out, "  %-8s %s\n", "help", "help CMD prints the usage of CMD");
    fprintf(out, "  %-8s %s\n", "version", "print the version");
    fprintf(out,
            "\nExit codes: 0 all solved, 1 check mismatch or limit reached, 2 bad usage or\n"
            "input, 3 pattern database or I/O error, 130 interrupted by SIGINT, SIGTERM or\n"
            "SIGHUP (while building tables, or solving with --checkpoint, which is written\n"
            "first).\n");
}

static int dispatch(int argc, char **argv)
{
    if (argc < 2) {
        usage_main(stderr);
        return EXIT_USAGE;
    }
    const char *cmd = argv[1];
    if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h")) {
        usage_main(stdout);
        return EXIT_OK;
    }
    if (!strcmp(cmd, "version") || !strcmp(cmd, "--version")) {
        printf("npuzzle %s (libnpuzzle %s)\n", NP_VERSION, np_version());
        return EXIT_OK;
    }
    if (!strcmp(cmd, "help")) {
        if (argc < 3 || !strcmp(argv[2], "help") || !strcmp(argv[2], "--help") ||
            !strcmp(argv[2], "-h")) {
            usage_main(stdout);
            return EXIT_OK;
        }
        if (!strcmp(argv[2], "version")) {
            printf(
                "usage: npuzzle version\n\nPrint the version of npuzzle and of the libnpuzzle it runs "
                "with.\n(npuzzle --version does the same.)\n");
            return EXIT_OK;
        }
        for (size_t i = 0; i < NCOMMANDS; i++)
            if (!strcmp(argv[2], commands[i].name)) {
                commands[i].usage();
                return EXIT_OK;
            }
        fprintf(stderr, "npuzzle: no command '%s' (try 'npuzzle help')\n", argv[2]);
        return EXIT_USAGE;
    }
    for (size_t i = 0; i < NCOMMANDS; i++)
        if (!strcmp(cmd, commands[i].name))
            return commands[i].run(argc - 1, argv + 1);
    fprintf(stderr, "npuzzle: unknown command '%s' (try 'npuzzle help')\n", cmd);
    return EXIT_USAGE;
}

int main(int argc, char **argv)
{
    int rc = dispatch(argc, argv);
    return cli_stdout_status(argc > 1 ? argv[1] : "", rc);
}
