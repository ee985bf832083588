/* gen.c - the `npuzzle gen` subcommand: build the pattern databases of a partition into the PDB directory. */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "npuzzle.h"
#include "npuzzle/pattern.h"
#include "npuzzle/pdb_file.h"
#include "npuzzle/pdb_gen.h"

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
           "  --partition NAME       a catalogue partition (8:4-4, 15:7-8, 15:6-6-3, 15:5-5-5,\n"
           "                         24:6-6-6-6) or tiles such as 1,2,3,4/5,6,7,8\n"
           "                         (default: the board's default partition)\n"
           "  --pattern TILES        build only these patterns, e.g. 1,2,3 or 1,2/3,4\n"
           "  -j, --jobs N           threads (default: all cores, or OMP_NUM_THREADS)\n"
           "  --pdb-dir DIR          where the files go (default: $NPUZZLE_PDB_DIR, else\n"
           "                         $XDG_CACHE_HOME/npuzzle, else ~/.cache/npuzzle)\n"
           "  --compress[=LEVEL]     also write FILE.pdb.zst (zstd level 1-22, default %d)\n"
           "  --force                rebuild files that exist and are valid\n"
           "  --max-memory BYTES     refuse patterns needing more (suffix K, M, G or T)\n"
           "  --dry-run              print what would be built and its sizes; build nothing\n"
           "  --goal GOAL            blank-first (default) or blank-last\n"
           "  --8bit                 store 8-bit values (default: 4-bit when every entry fits)\n"
           "  --progress             draw a progress bar even when stderr is not a terminal\n"
           "  -q, --quiet            no progress or sizes on stderr\n"
           "  -h, --help             this text\n"
           "\n"
           "Sizes and progress go to standard error; the summary of the files goes to\n"
           "standard output. Exit codes: 0 done, 2 bad usage, 3 does not fit in memory or\n"
           "a file error, 130 interrupted by SIGINT or SIGTERM (the table being built is\n"
           "not written).\n",
           DEFAULT_ZSTD_LEVEL);
}

/* Progress display state for one pattern. */
typedef struct progress_ctx {
    bool bar;      /* redraw one line (terminal or --progress) instead of printing lines */
    bool quiet;
    int index, count; /* pattern index / count, for the label */
} progress_ctx;

static void human_count(char *buf, size_t len, double v)
{
    if (v >= 1e9)
        snprintf(buf, len, "%.2fG", v / 1e9);
    else if (v >= 1e6)
        snprintf(buf, len, "%.2fM", v / 1e6);
    else if (v >= 1e4)
        snprintf(buf, len, "%.1fk", v / 1e3);
    else
        snprintf(buf, len, "%.0f", v);
}

static void on_progress(void *vctx, const np_pdb_gen_progress *p)
{
    const progress_ctx *ctx = vctx;
    if (ctx->quiet)
        return;
    double frac = p->states_total ? (double)p->states_reached / (double)p->states_total
                : p->placements_total ? (double)p->placements_reached / (double)p->placements_total
                                      : 0;
    double rate = p->elapsed > 0 ? (double)p->states_reached / p->elapsed : 0;
    char at[32], rt[32];
    human_count(at, sizeof at, (double)p->states_at_depth);
    human_count(rt, sizeof rt, rate);
    if (ctx->bar) {
        enum { WIDTH = 24 };
        char bar[WIDTH + 1];
        int fill = (int)(frac * WIDTH + 0.5);
        for (int i = 0; i < WIDTH; i++)
            bar[i] = i < fill ? '#' : '-';
        bar[WIDTH] = '\0';
        fprintf(stderr, "\r  [%d/%d] [%s] %5.1f%%  depth %3d  %8s states  %7.1f s  %8s states/s\033[K",
                ctx->index + 1, ctx->count, bar, 100 * frac, p->depth, at, p->elapsed, rt);
    } else {
        fprintf(stderr, "  depth %3d: %12llu states (%8s), %5.1f%% reached, %7.1f s, %8s states/s\n",
                p->depth, (unsigned long long)p->states_at_depth, at, 100 * frac, p->elapsed, rt);
    }
    fflush(stderr);
}

/* Set by SIGINT/SIGTERM; the library polls it through the cancel pointers. */
static volatile sig_atomic_t interrupted;

static void on_interrupt(int sig)
{
    (void)sig;
    interrupted = 1;
}

/* mkdir -p */
static int make_dirs(const char *path)
{
    char buf[PATH_MAX];
    if (snprintf(buf, sizeof buf, "%s", path) >= (int)sizeof buf) {
        errno = ENAMETOOLONG;
        return -1;
    }
    for (char *p = buf + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = '\0';
        if (mkdir(buf, 0755) != 0 && errno != EEXIST)
            return -1;
        *p = '/';
    }
    if (mkdir(buf, 0755) != 0 && errno != EEXIST)
        return -1;
    struct stat st;
    if (stat(buf, &st) != 0)
        return -1;
    if (!S_ISDIR(st.st_mode)) {
        errno = ENOTDIR;
        return -1;
    }
    return 0;
}

static bool file_exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

static uint64_t file_bytes(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 ? (uint64_t)st.st_size : 0;
}

/* Say that a signal stopped the build of `path` before it was written. */
static void report_not_written(const char *path)
{
    fprintf(stderr, "npuzzle gen: interrupted; %s not written%s\n", path,
            file_exists(path) ? " (the existing file is untouched)" : "");
}

/* One pattern's plan: what it needs and whether it is built. */
typedef struct plan {
    const np_pattern *pat;
    char path[PATH_MAX];
    char zst[PATH_MAX + 8];
    np_pdb_gen_estimate est;
    bool keep;        /* a valid file exists and --force was not given */
    bool fits;
} plan;

typedef struct gen_args {
    int rows, cols;
    np_goal goal;
    const char *partition, *pattern, *pdb_dir_opt;
    int jobs;
    int zlevel;       /* 0: no .zst */
    bool force, dry_run, quiet, progress, eight_bit;
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
            if (u < 1 || u > 1024) {
                fprintf(stderr, "npuzzle gen: -j must be between 1 and 1024, not '%s'\n", optarg);
                return EXIT_USAGE;
            }
            a->jobs = (int)u;
            break;
        case 'D': a->pdb_dir_opt = optarg; break;
        case 'z':
            a->zlevel = DEFAULT_ZSTD_LEVEL;
            if (optarg) {
                if (!cli_parse_u64("gen", "--compress", optarg, &u))
                    return EXIT_USAGE;
                if (u < 1 || u > 22) {
                    fprintf(stderr, "npuzzle gen: --compress level must be 1..22, not '%s'\n", optarg);
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
                fprintf(stderr, "npuzzle gen: unknown goal '%s' (blank-first or blank-last)\n", optarg);
                return EXIT_USAGE;
            }
            break;
        case '8': a->eight_bit = true; break;
        case 'h': usage_gen(); return -1;
        case ':':
            fprintf(stderr, "npuzzle gen: option '%s' needs a value (see npuzzle help gen)\n",
                    argv[optind - 1]);
            return EXIT_USAGE;
        default:
            fprintf(stderr, "npuzzle gen: unknown option '%s' (see npuzzle help gen)\n",
                    argv[optind - 1]);
            return EXIT_USAGE;
        }
    }
    if (optind < argc) {
        fprintf(stderr, "npuzzle gen: unexpected argument '%s' (see npuzzle help gen)\n", argv[optind]);
        return EXIT_USAGE;
    }
    if (a->partition && a->pattern) {
        fprintf(stderr, "npuzzle gen: give --partition or --pattern, not both\n");
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
        if (a->partition && np_catalog_find(&named, a->partition, NULL, 0) == NP_OK) {
            a->rows = named.rows;
            a->cols = named.cols;
        } else {
            a->rows = a->cols = 4;
        }
    }
    int rc;
    if (spec)
        rc = np_partition_resolve(part, spec, a->rows, a->cols, false, err, sizeof err);
    else {
        rc = np_partition_default(part, a->rows, a->cols);
        if (rc != NP_OK)
            snprintf(err, sizeof err, "no default partition for a %dx%d board; give --partition or --pattern",
                     a->rows, a->cols);
    }
    if (rc != NP_OK) {
        fprintf(stderr, "npuzzle gen: %s\n", err);
        return EXIT_USAGE;
    }
    return EXIT_OK;
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
    for (int i = 0; i < part.npatterns; i++)
        if (part.patterns[i].ntiles > g.cells - 3) {
            /* With fewer than two free tiles, parity leaves placements unreachable. */
            fprintf(stderr, "npuzzle gen: pattern %d has %d tiles; at most %d on a %dx%d board\n",
                    i + 1, part.patterns[i].ntiles, g.cells - 3, a.rows, a.cols);
            return EXIT_USAGE;
        }
    int threads = cli_threads(a.jobs);
    char *dir = cli_pdb_dir(a.pdb_dir_opt);
    if (!dir) {
        fprintf(stderr, "npuzzle gen: out of memory\n");
        return EXIT_PDB;
    }
    if (!a.dry_run && make_dirs(dir) != 0) {
        fprintf(stderr, "npuzzle gen: cannot create the PDB directory %s: %s\n", dir, strerror(errno));
        free(dir);
        return EXIT_PDB;
    }

    char pname[512], b1[32], b2[32], b3[32], b4[32];
    np_partition_format(pname, sizeof pname, &part);
    bool show = !a.quiet;
    if (show)
        fprintf(stderr, "npuzzle gen: %s partition %s (%s) on %dx%d, %s goal, %d thread%s, into %s\n",
                part.name, pname, a.eight_bit ? "8-bit" : "4-bit when it fits", a.rows, a.cols,
                np_goal_name(a.goal), threads, threads == 1 ? "" : "s", dir);

    /* Plan every pattern first: sizes, memory, files already there. */
    plan plans[NP_PARTITION_MAX];
    int exit_code = EXIT_OK;
    uint64_t avail = np_mem_available();
    for (int i = 0; i < part.npatterns; i++) {
        plan *pl = &plans[i];
        memset(pl, 0, sizeof *pl);
        pl->pat = &part.patterns[i];
        char name[256];
        np_pdb_filename(name, sizeof name, &g, pl->pat->tiles, pl->pat->ntiles);
        snprintf(pl->path, sizeof pl->path, "%s/%s", dir, name);
        snprintf(pl->zst, sizeof pl->zst, "%s/%s.zst", dir, name);
        int erc = np_pdb_gen_estimate_for(&pl->est, &g, pl->pat->tiles, pl->pat->ntiles);
        char tiles[128];
        np_pattern_format(tiles, sizeof tiles, pl->pat, ',');
        if (erc != NP_OK) {
            fprintf(stderr, "npuzzle gen: pattern %s: %s\n", tiles, np_strerror(erc));
            exit_code = cli_exit_for_error(erc);
            pl->fits = false;
            continue;
        }
        uint64_t need = pl->est.table_bytes + pl->est.work_bytes;
        uint64_t have = avail ? avail : pl->est.available;
        pl->fits = (!have || need <= have) && (!a.max_memory || need <= a.max_memory);
        if (show || !pl->fits)
            fprintf(stderr,
                    "  pattern %d/%d %s: %llu entries, %llu states; table %s + work %s = %s; "
                    "MemAvailable %s%s%s\n",
                    i + 1, part.npatterns, tiles, (unsigned long long)pl->est.entries,
                    (unsigned long long)pl->est.states,
                    np_format_bytes(b1, sizeof b1, pl->est.table_bytes),
                    np_format_bytes(b2, sizeof b2, pl->est.work_bytes),
                    np_format_bytes(b3, sizeof b3, need),
                    have ? np_format_bytes(b4, sizeof b4, have) : "unknown",
                    a.max_memory ? ", --max-memory " : "",
                    a.max_memory ? np_format_bytes(b1, sizeof b1, a.max_memory) : "");
        /* A valid file (or, unless --dry-run, a .zst that unpacks to one) is kept. */
        if (!a.force && (file_exists(pl->path) || (!a.dry_run && file_exists(pl->zst)))) {
            np_pdb_expect ex = {a.rows, a.cols, (int)a.goal, pl->pat->ntiles, pl->pat->tiles};
            np_pdb *old = NULL;
            char err[1024];
            if (np_pdb_open(&old, pl->path, &ex, err, sizeof err) == NP_OK) {
                pl->keep = true;
                np_pdb_close(old);
            } else if (show) {
                fprintf(stderr, "  %s (%s)\n", a.dry_run ? "would rebuild" : "rebuilding", err);
            }
        }
        if (!pl->fits && !pl->keep) {
            fprintf(stderr,
                    "npuzzle gen: pattern %s needs %s but only %s is available%s; "
                    "use a partition with smaller patterns or free memory\n",
                    tiles, np_format_bytes(b1, sizeof b1, need),
                    np_format_bytes(b2, sizeof b2,
                                    a.max_memory && (!have || a.max_memory < have) ? a.max_memory : have),
                    a.max_memory && (!have || a.max_memory < have) ? " (--max-memory)" : "");
            exit_code = EXIT_PDB;
        }
    }

    if (a.dry_run) {
        for (int i = 0; i < part.npatterns; i++) {
            const plan *pl = &plans[i];
            uint64_t e = pl->est.entries;
            printf("%s %s: %llu entries, file %s (8-bit) or %s (4-bit), memory %s%s\n",
                   pl->keep ? "keep " : !pl->fits ? "NOFIT" : "build", pl->path,
                   (unsigned long long)e,
                   np_format_bytes(b1, sizeof b1, NP_PDB_ALIGN + np_pdb_payload_bytes(NP_PDB_ENC_8BIT, e)),
                   np_format_bytes(b2, sizeof b2, NP_PDB_ALIGN + np_pdb_payload_bytes(NP_PDB_ENC_4BIT, e)),
                   np_format_bytes(b3, sizeof b3, pl->est.table_bytes + pl->est.work_bytes),
                   a.zlevel ? ", plus .zst" : "");
        }
        free(dir);
        return exit_code;
    }
    if (exit_code != EXIT_OK) {
        free(dir);
        return exit_code;
    }

    /* Build. The first SIGINT or SIGTERM stops the build cleanly (no file
     * written, the previous one kept); a second one kills at once. */
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_interrupt;
    sa.sa_flags = SA_RESETHAND;
    sigemptyset(&sa.sa_mask);
    struct sigaction old_int, old_term;
    sigaction(SIGINT, &sa, &old_int);
    sigaction(SIGTERM, &sa, &old_term);
    double t_all = np_clock();
    for (int i = 0; i < part.npatterns && exit_code == EXIT_OK; i++) {
        plan *pl = &plans[i];
        char tiles[128], err[1024];
        np_pattern_format(tiles, sizeof tiles, pl->pat, ',');
        double t0 = np_clock();
        uint64_t zbytes = 0;
        int enc = 0;
        bool built = false;
        if (!pl->keep) {
            progress_ctx pc = {.bar = a.progress || isatty(STDERR_FILENO), .quiet = a.quiet,
                               .index = i, .count = part.npatterns};
            np_pdb_gen_opts go = {.threads = threads, .max_memory = a.max_memory,
                                  .progress = on_progress, .progress_ctx = &pc,
                                  .cancel = &interrupted};
            uint8_t *values = NULL;
            uint64_t entries = 0;
            if (show)
                fprintf(stderr, "  building %s\n", pl->path);
            int grc = np_pdb_generate(&values, &entries, &g, pl->pat->tiles, pl->pat->ntiles, &go);
            if (pc.bar && show)
                fputc('\n', stderr);
            if (grc == NP_OK && interrupted)
                grc = NP_EINTR; /* the signal came after the last level: still a stopped run */
            if (grc != NP_OK) {
                free(values);
                if (grc == NP_EINTR)
                    report_not_written(pl->path);
                else
                    fprintf(stderr, "npuzzle gen: pattern %s: %s\n", tiles, np_strerror(grc));
                exit_code = cli_exit_for_error(grc);
                break;
            }
            np_pdb_write_opts wo = {.encoding = a.eight_bit ? NP_PDB_ENC_8BIT : NP_PDB_ENC_AUTO,
                                    .threads = threads, .cancel = &interrupted};
            np_pdb_write_info wi;
            int wrc = np_pdb_write(pl->path, &g, pl->pat->tiles, pl->pat->ntiles, values, entries,
                                   &wo, &wi, err, sizeof err);
            free(values);
            if (wrc != NP_OK) {
                if (wrc == NP_EINTR)
                    report_not_written(pl->path);
                else
                    fprintf(stderr, "npuzzle gen: %s\n", err);
                exit_code = cli_exit_for_pdb_error(wrc);
                break;
            }
            enc = wi.encoding;
            built = true;
        } else {
            np_pdb_header h;
            if (np_pdb_read_header(&h, pl->path, err, sizeof err) == NP_OK)
                enc = h.encoding;
        }
        if (a.zlevel && (built || !file_exists(pl->zst))) {
            if (show)
                fprintf(stderr, "  compressing %s (zstd level %d)\n", pl->zst, a.zlevel);
            int zrc = np_pdb_compress(pl->path, pl->zst, a.zlevel, threads, &zbytes, err, sizeof err);
            if (zrc != NP_OK) {
                fprintf(stderr, "npuzzle gen: %s\n", err);
                exit_code = cli_exit_for_pdb_error(zrc);
                break;
            }
        } else if (file_exists(pl->zst)) {
            zbytes = file_bytes(pl->zst);
        }
        double secs = np_clock() - t0;
        printf("%s  %s  %s", pl->path, np_pdb_encoding_name(enc),
               np_format_bytes(b1, sizeof b1, file_bytes(pl->path)));
        if (zbytes)
            printf("  zst %s", np_format_bytes(b2, sizeof b2, zbytes));
        printf("  %.2f s%s\n", secs, built ? "" : "  (kept; --force rebuilds)");
        fflush(stdout);
        if (interrupted && i + 1 < part.npatterns) {
            fprintf(stderr, "npuzzle gen: interrupted; stopping after %s\n", pl->path);
            exit_code = EXIT_INTERRUPTED;
        }
    }
    /* `solve --gen` runs this in-process: give its signals back. */
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGTERM, &old_term, NULL);
    interrupted = 0;
    if (exit_code == EXIT_OK && show)
        fprintf(stderr, "npuzzle gen: done in %.2f s\n", np_clock() - t_all);
    free(dir);
    return exit_code;
}
