/* solve_pdb.c - finding, building and mapping the PDBs `npuzzle solve` uses. */
#include "solve_pdb.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "build.h"
#include "cli.h"

/* The gen command that builds the tables of `part` for g into dir. */
static void gen_command(char *cmd, size_t len, const np_geom *g, const np_partition *part,
                        const char *dir, bool dual, bool za)
{
    char spec[1024];
    if (strcmp(part->name, "custom") != 0) {
        snprintf(spec, sizeof spec, "--partition %s", part->name);
    } else {
        char tiles[1000];
        np_partition_format(tiles, sizeof tiles, part);
        snprintf(spec, sizeof spec, "--size %dx%d --pattern %s", g->rows, g->cols, tiles);
    }
    snprintf(cmd, len, "npuzzle gen %s%s%s%s --pdb-dir %s", spec,
             g->goal == NP_GOAL_BLANK_LAST ? " --goal blank-last" : "", dual ? " --dual" : "",
             za ? " --zero-aware" : "", dir);
}

/* Whether the error `err` (the library's "PATH: not a regular file") is about
 * a directory at a table's name: gen refuses to build over one, so the user
 * is told to remove it rather than to rebuild. Its path goes to path. */
static bool directory_at_table(const char *err, char *path, size_t len)
{
    const char *at = strstr(err, ": not a regular file");
    const size_t n = at ? (size_t)(at - err) : 0;
    if (!at || n >= len || n < 4 || memcmp(at - 4, ".pdb", 4) != 0)
        return false;
    memcpy(path, err, n);
    path[n] = '\0';
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

char *solve_pdb_example(char *buf, size_t len, int rows, int cols)
{
    const int tiles = rows * cols - 1, per = rows * cols - 3 < 5 ? rows * cols - 3 : 5;
    size_t at = 0;
    buf[0] = '\0';
    for (int t = 1; t <= tiles && at < len; t++) {
        if (t > 1 && (t - 1) % per == 0 && (t - 1) / per == 3) { /* three patterns shown */
            snprintf(buf + at, len - at, "/...");
            break;
        }
        const char *sep = t == 1 ? "" : (t - 1) % per == 0 ? "/" : ",";
        at += (size_t)snprintf(buf + at, len - at, "%s%d", sep, t);
    }
    return buf;
}

int solve_pdb_open(solve_pdb_ctx *ctx, const np_geom *g, const char *partition,
                   const char *pdb_dir_opt, bool gen, int threads, bool quiet, bool required,
                   unsigned flags, bool za_if_present)
{
    const bool dual = flags & NP_PDBSET_DUAL, za = flags & NP_PDBSET_ZERO_AWARE;
    ctx->set = NULL;
    np_partition part;
    char err[512] = "";
    int rc;
    if (partition) {
        rc = np_partition_resolve(&part, partition, g->rows, g->cols, true, err, sizeof err);
        if (rc != NP_OK) {
            fprintf(stderr, "npuzzle solve: --partition %s: %s\n", partition, err);
            return EXIT_USAGE;
        }
    } else {
        rc = np_partition_default(&part, g->rows, g->cols);
        if (rc != NP_OK) {
            if (!required)
                return EXIT_OK;
            char ex[128];
            fprintf(stderr,
                    "npuzzle solve: no default partition for %dx%d boards; give --partition "
                    "(e.g. %s)\n",
                    g->rows, g->cols, solve_pdb_example(ex, sizeof ex, g->rows, g->cols));
            return EXIT_USAGE;
        }
    }
    char *dir = cli_pdb_dir(pdb_dir_opt);
    if (!dir) {
        fprintf(stderr, "npuzzle solve: out of memory\n");
        return EXIT_PDB;
    }
    /* the zero-aware set when it is all there (a bad table in it is refused
     * by name), else the plain one; --gen builds, and the messages name, the
     * set chosen, so that a run after the build opens what this one does */
    if (za_if_present && !za &&
        np_pdbset_find_missing(g, &part, dir, flags | NP_PDBSET_ZERO_AWARE, NULL, 0, NULL, 0) ==
            NP_OK)
        flags |= NP_PDBSET_ZERO_AWARE;
    const bool za_set = flags & NP_PDBSET_ZERO_AWARE;
    rc = np_pdbset_open(&ctx->set, g, &part, dir, flags, err, sizeof err);
    if (gen && (rc == NP_ENOTFOUND || (rc == NP_OK && np_pdbset_dual_missing(ctx->set, NULL)))) {
        /* The build's report goes to standard error (none with -q): standard
         * output keeps only the solver's results. */
        np_pdbset_close(ctx->set);
        ctx->set = NULL;
        build_opts bo = {
            .dir = dir, .threads = threads, .quiet = quiet, .dual = dual, .zero_aware = za_set};
        int grc = build_partition(g, &part, &bo, quiet ? NULL : stderr);
        if (grc != EXIT_OK) {
            free(dir);
            return grc;
        }
        rc = np_pdbset_open(&ctx->set, g, &part, dir, flags, err, sizeof err);
    }
    char cmd[1200], blocked[PATH_MAX];
    const bool named = strcmp(part.name, "custom") != 0;
    gen_command(cmd, sizeof cmd, g, &part, dir, dual, za_set);
    if (rc == NP_OK) {
        const char *first;
        int missing = np_pdbset_dual_missing(ctx->set, &first);
        if (missing && !quiet)
            fprintf(stderr,
                    "npuzzle solve: note: %d table%s for the dual lookups %s missing (%s); %s "
                    "builds them (or add --gen); until then those lookups count Manhattan "
                    "distances there\n",
                    missing, missing == 1 ? "" : "s", missing == 1 ? "is" : "are", first, cmd);
        free(dir);
        return EXIT_OK;
    }
    if (rc == NP_ENOTFOUND && !required) {
        if (!quiet)
            fprintf(stderr,
                    "npuzzle solve: no pattern databases for %s in %s (%s builds them, or "
                    "add --gen); using linear conflict\n",
                    named ? part.name : "the partition", dir, cmd);
        free(dir);
        return EXIT_OK;
    }
    if (rc == NP_ENOTFOUND)
        fprintf(stderr, "npuzzle solve: %s\n  build the tables with: %s   (or add --gen)\n", err,
                cmd);
    else if (rc == NP_EFORMAT && directory_at_table(err, blocked, sizeof blocked))
        fprintf(stderr,
                "npuzzle solve: %s\n  remove the directory %s, then build the tables with: %s\n",
                err, blocked, cmd);
    else if (rc == NP_EFORMAT || rc == NP_ECHECKSUM || rc == NP_EVERSION || rc == NP_EMISMATCH ||
             rc == NP_ETRUNCATED)
        fprintf(stderr, "npuzzle solve: %s\n  rebuild the tables with: %s --force\n", err, cmd);
    else /* the files are not at fault: a full disk, no memory, ... */
        fprintf(stderr, "npuzzle solve: %s\n", err);
    free(dir);
    return cli_exit_for_error(rc);
}

int solve_pdb_check_size(const np_geom *g, const np_partition *part, const char *where)
{
    const int big = build_pattern_too_large(g, part);
    if (big < 0)
        return EXIT_OK;
    fprintf(stderr,
            "npuzzle solve: %s: pattern %d of the partition has %d tiles; at most %d on a %dx%d "
            "board\n",
            where, big + 1, part->patterns[big].ntiles, BUILD_MAX_TILES(g), g->rows, g->cols);
    return EXIT_USAGE;
}

int solve_pdb_precheck(const np_geom *g, const char *partition, const char *pdb_dir_opt,
                       unsigned flags, bool za_if_present, const char *where)
{
    np_partition part;
    char err[4096 + 256] = "";
    if (partition ? np_partition_resolve(&part, partition, g->rows, g->cols, true, err,
                                         sizeof err) != NP_OK
                  : np_partition_default(&part, g->rows, g->cols) != NP_OK)
        return EXIT_OK; /* said by the caller's own checks, or no tables wanted */
    char *dir = cli_pdb_dir(pdb_dir_opt);
    if (!dir) {
        fprintf(stderr, "npuzzle solve: out of memory\n");
        return EXIT_PDB;
    }
    const bool za = flags & NP_PDBSET_ZERO_AWARE;
    char missing[4096];
    int rc = np_pdbset_find_missing(g, &part, dir, flags, missing, sizeof missing, err, sizeof err);
    if (rc != NP_OK && !za && za_if_present &&
        np_pdbset_find_missing(g, &part, dir, flags | NP_PDBSET_ZERO_AWARE, NULL, 0, NULL, 0) ==
            NP_OK)
        rc = NP_OK;
    if (rc == NP_ENOTFOUND) {
        char cmd[1200];
        gen_command(cmd, sizeof cmd, g, &part, dir, flags & NP_PDBSET_DUAL, za);
        fprintf(stderr,
                "npuzzle solve: %s: %s: not found (a table for the %dx%d boards)\n"
                "  build the tables with: %s   (or add --gen)\n",
                where, missing, g->rows, g->cols, cmd);
    } else if (rc != NP_OK) { /* the directory is at fault, not the tables */
        fprintf(stderr, "npuzzle solve: %s: %s (a table for the %dx%d boards)\n", where, err,
                g->rows, g->cols);
    }
    free(dir);
    return rc == NP_OK ? EXIT_OK : EXIT_PDB;
}

void solve_pdb_close(solve_pdb_ctx *ctx)
{
    np_pdbset_close(ctx->set);
    ctx->set = NULL;
}
