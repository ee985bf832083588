/* gen.c - the `npuzzle gen` subcommand: build the pattern databases of a partition into the PDB
 * directory. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "build.h"
#include "cli.h"
#include "npuzzle.h"

#define DEFAULT_ZSTD_LEVEL 9

void usage_gen(void)
{
    printf("usage: npuzzle gen [OPTIONS]\n"
           "\n"
           "Build the additive pattern databases of a partition and write them to the PDB\n"
           "directory as RxC-GOAL-TILES.pdb (GOAL bf or bl), e.g. 4x4-bf-1.2.3.4.5.6.7.pdb.\n"
           "Existing valid files are kept unless --force.\n"
           "\n"
           "options:\n"
           "  --size RxC             board size (default: the partition's, else 4x4)\n"
           "  --partition NAME       a catalogue partition (8:4-4, 15:7-8, 15:6-6-3,\n"
           "                         15:5-5-5, 24:6-6-6-6) or tiles that cover the board,\n"
           "                         e.g. 1,2,3,4/5,6,7,8 with --size 3x3 (default: the\n"
           "                         board's default partition)\n"
           "  --pattern TILES        build only these patterns, e.g. 1,2,3 or 1,2/3,4 (or\n"
           "                         a catalogue partition's, by its name)\n"
           "  -j, --jobs N           threads (default: all cores, or OMP_NUM_THREADS)\n"
           "  --pdb-dir DIR          where the files go (default: $NPUZZLE_PDB_DIR, else\n"
           "                         $XDG_CACHE_HOME/npuzzle, else ~/.cache/npuzzle)\n"
           "  --compress[=LEVEL]     also write FILE.pdb.zst (zstd level 1-22, default %d)\n"
           "  --force                rebuild files that exist and are valid\n"
           "  --max-memory BYTES     build nothing when a table needs more (K, M, G, T)\n"
           "  --dry-run              print what would be built and its sizes; build nothing\n"
           "  --goal GOAL            blank-first (default) or blank-last\n"
           "  --8bit                 store 8-bit values (default: 4-bit when every entry\n"
           "                         fits)\n"
           "  --dual                 also the tables `npuzzle solve --dual` uses: each\n"
           "                         pattern with the goal's blank in a region its tiles\n"
           "                         wall off, and each pattern without each of its tiles\n"
           "                         (16 more for 15:7-8, 25 more for 24:6-6-6-6)\n"
           "  --zero-aware           also each pattern's zero-aware table (NAME-z.pdb, a\n"
           "                         byte an entry): its value for each region the\n"
           "                         pattern's tiles wall the blank in, not only the least;\n"
           "                         with --dual, the dual lookups' tables so too\n"
           "  --progress             draw a progress bar even when stderr is not a terminal\n"
           "  -q, --quiet            no progress or sizes on stderr\n"
           "  -h, --help             this text\n"
           "\n"
           "Sizes and progress go to standard error; the summary of the files goes to\n"
           "standard output. Exit codes: 0 done, 2 bad usage, 3 does not fit in memory or\n"
           "a file error, 130 interrupted by SIGINT, SIGTERM or SIGHUP (the table being\n"
           "built is not written).\n",
           DEFAULT_ZSTD_LEVEL);
}

typedef struct gen_args {
    int rows, cols;
    np_goal goal;
    const char *partition, *pattern, *pdb_dir_opt;
    int jobs;
    int zlevel; /* 0: no .zst */
    bool force, dry_run, quiet, progress, eight_bit, dual, zero_aware;
    uint64_t max_memory;
} gen_args;

static int parse_args(gen_args *a, int argc, char **argv)
{
    static const struct option longopts[] = {
        {"size", required_argument, NULL, 's'},
        {"partition", required_argument, NULL, 'P'},
        {"pattern", required_argument, NULL, 't'},
        {"jobs", required_argument, NULL, 'j'},
        {"pdb-dir", required_argument, NULL, 'D'},
        {"compress", optional_argument, NULL, 'z'},
        {"force", no_argument, NULL, 'F'},
        {"max-memory", required_argument, NULL, 'M'},
        {"dry-run", no_argument, NULL, 'n'},
        {"quiet", no_argument, NULL, 'q'},
        {"progress", no_argument, NULL, 'p'},
        {"goal", required_argument, NULL, 'g'},
        {"8bit", no_argument, NULL, '8'},
        {"dual", no_argument, NULL, 'U'},
        {"zero-aware", no_argument, NULL, 'Z'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    uint64_t u;
    int c;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":j:qh", longopts, NULL)) != -1) {
        switch (c) {
        case 's':
            if (!cli_parse_size(optarg, &a->rows, &a->cols)) {
                fprintf(stderr, "npuzzle gen: bad --size '%s' (RxC, each side %d..%d)\n", optarg,
                        NP_MIN_SIDE, NP_MAX_SIDE);
                return EXIT_USAGE;
            }
            break;
        case 'P': a->partition = optarg; break;
        case 't': a->pattern = optarg; break;
        case 'j':
            if (!cli_parse_u64("gen", "-j", optarg, &u))
                return EXIT_USAGE;
            if (u < 1 || u > CLI_MAX_THREADS) {
                fprintf(stderr, "npuzzle gen: -j must be between 1 and %d, not '%s'\n",
                        CLI_MAX_THREADS, optarg);
                return EXIT_USAGE;
            }
            a->jobs = (int)u;
            break;
        case 'D':
            if (!(a->pdb_dir_opt = cli_pdb_dir_option("gen", optarg)))
                return EXIT_USAGE;
            break;
        case 'z':
            a->zlevel = DEFAULT_ZSTD_LEVEL;
            if (optarg) {
                if (!cli_parse_u64("gen", "--compress", optarg, &u))
                    return EXIT_USAGE;
                if (u < 1 || u > 22) {
                    fprintf(stderr, "npuzzle gen: --compress level must be 1..22, not '%s'\n",
                            optarg);
                    return EXIT_USAGE;
                }
                a->zlevel = (int)u;
            }
            break;
        case 'F': a->force = true; break;
        case 'M':
            if (!cli_parse_bytes("gen", "--max-memory", optarg, &a->max_memory))
                return EXIT_USAGE;
            break;
        case 'n': a->dry_run = true; break;
        case 'q': a->quiet = true; break;
        case 'p': a->progress = true; break;
        case 'g':
            if (np_goal_parse(&a->goal, optarg) != NP_OK) {
                fprintf(stderr, "npuzzle gen: unknown goal '%s' (blank-first or blank-last)\n",
                        optarg);
                return EXIT_USAGE;
            }
            break;
        case '8': a->eight_bit = true; break;
        case 'U': a->dual = true; break;
        case 'Z': a->zero_aware = true; break;
        case 'h': usage_gen(); return -1;
        default: return cli_option_error("gen", c, argv, longopts);
        }
    }
    if (optind < argc) {
        fprintf(stderr, "npuzzle gen: unexpected argument '%s' (see npuzzle help gen)\n",
                argv[optind]);
        return EXIT_USAGE;
    }
    if (a->partition && a->pattern) {
        fprintf(stderr, "npuzzle gen: give --partition or --pattern, not both\n");
        return EXIT_USAGE;
    }
    if ((a->partition && !*a->partition) || (a->pattern && !*a->pattern)) {
        fprintf(stderr,
                "npuzzle gen: %s is empty (a name such as 15:7-8, or tiles such as "
                "1,2,3/4,5,6)\n",
                a->partition ? "--partition" : "--pattern");
        return EXIT_USAGE;
    }
    return EXIT_OK;
}

/* Choose the board size and the partition from the options. */
static int resolve_partition(np_partition *part, gen_args *a)
{
    char err[512];
    const char *spec = a->partition ? a->partition : a->pattern;
    if (!a->rows) {
        /* the size follows from a catalogue name, else 4x4 */
        np_partition named;
        if (np_catalog_find(&named, spec ? spec : "", NULL, 0) == NP_OK) {
            a->rows = named.rows;
            a->cols = named.cols;
        } else {
            a->rows = a->cols = 4;
        }
    }
    if (!spec) {
        if (np_partition_default(part, a->rows, a->cols) != NP_OK) {
            fprintf(stderr,
                    "npuzzle gen: no default partition for a %dx%d board; give --partition or "
                    "--pattern\n",
                    a->rows, a->cols);
            return EXIT_USAGE;
        }
        return EXIT_OK;
    }
    /* a partition covers the board, as solve looks it up; --pattern builds
     * some patterns only */
    if (np_partition_resolve(part, spec, a->rows, a->cols, a->partition != NULL, err, sizeof err) ==
        NP_OK)
        return EXIT_OK;
    /* tiles that would do as patterns: only the cover is missing */
    np_partition some;
    const bool uncovered = a->partition &&
        np_partition_resolve(&some, spec, a->rows, a->cols, false, NULL, 0) == NP_OK;
    fprintf(stderr, "npuzzle gen: %s %s: %s%s\n", a->partition ? "--partition" : "--pattern", spec,
            err, uncovered ? "; --pattern builds only some patterns" : "");
    return EXIT_USAGE;
}

int cmd_gen(int argc, char **argv)
{
    gen_args a = {0};
    a.goal = NP_GOAL_BLANK_FIRST;
    int rc = parse_args(&a, argc, argv);
    if (rc != EXIT_OK)
        return rc < 0 ? EXIT_OK : rc;
    np_partition part;
    rc = resolve_partition(&part, &a);
    if (rc != EXIT_OK)
        return rc;
    np_geom g;
    if (np_geom_init(&g, a.rows, a.cols, a.goal) != NP_OK) {
        fprintf(stderr, "npuzzle gen: unsupported board size %dx%d\n", a.rows, a.cols);
        return EXIT_USAGE;
    }
    char *dir = cli_pdb_dir(a.pdb_dir_opt);
    if (!dir) {
        fprintf(stderr, "npuzzle gen: out of memory\n");
        return EXIT_PDB;
    }
    build_opts bo = {.dir = dir,
                     .threads = cli_threads(a.jobs),
                     .zlevel = a.zlevel,
                     .max_memory = a.max_memory,
                     .force = a.force,
                     .dry_run = a.dry_run,
                     .quiet = a.quiet,
                     .progress = a.progress,
                     .eight_bit = a.eight_bit,
                     .dual = a.dual,
                     .zero_aware = a.zero_aware};
    rc = build_partition(&g, &part, &bo, stdout);
    free(dir);
    return rc;
}
