/* build.c - building the pattern databases of a partition into a directory (npuzzle gen, solve
 * --gen). */
#include "build.h"

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

/* Progress display state for one pattern. */
typedef struct progress_ctx {
    bool bar; /* redraw one line (terminal or --progress) instead of printing lines */
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
        : p->placements_total     ? (double)p->placements_reached / (double)p->placements_total
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
        fprintf(stderr,
                "\r  [%d/%d] [%s] %5.1f%%  depth %3d  %8s states  %7.1f s  %8s states/s\033[K",
                ctx->index + 1, ctx->count, bar, 100 * frac, p->depth, at, p->elapsed, rt);
    } else {
        fprintf(stderr,
                "  depth %3d: %12llu states (%8s), %5.1f%% reached, %7.1f s, %8s states/s\n",
                p->depth, (unsigned long long)p->states_at_depth, at, 100 * frac, p->elapsed, rt);
    }
    fflush(stderr);
}

/* Set by SIGINT, SIGTERM and SIGHUP; the library polls it through the cancel
 * pointers. */
static volatile sig_atomic_t interrupted;

/* Set while zstd's worker threads compress a table: a signal then stops the
 * run only once zstd's call in progress returns, which can take a while. */
static volatile sig_atomic_t compressing_mt;

static void on_interrupt(int sig)
{
    (void)sig;
    interrupted = 1;
    if (compressing_mt) { /* said at once (write: safe in a handler) */
        static const char m[] = "\nnpuzzle gen: stopping once zstd's job in progress ends "
                                "(a second signal ends the run at once)\n";
        ssize_t w = write(STDERR_FILENO, m, sizeof m - 1);
        (void)w;
    }
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

static bool regular_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
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

/* Tables one build may plan: a partition's, and with --dual those its dual
 * lookups use (np_pdb_dual_tables: a pattern walls in a few regions at most,
 * and has one table without each of its tiles). */
#define BUILD_MAX_PLANS (NP_PARTITION_MAX * 2 * (1 + NP_PDB_DUAL_REGIONS + NP_PATTERN_MAX_TILES))

/* One table's plan: what it needs and whether it is built. */
typedef struct plan {
    const np_pattern *pat;
    np_pattern own;  /* pat, for a table of the dual lookups */
    int goal_region; /* 0: the goal's blank in its home region; c + 1: in cell c's */
    char path[PATH_MAX];
    char zst[PATH_MAX + 8];
    np_pdb_gen_estimate est;
    bool keep; /* a valid file exists and --force was not given */
    bool fits;
    bool za;       /* the zero-aware table (NP_PDB_ENC_ZA) */
    bool too_big;  /* more placements than 64 bits count (est is empty) */
    bool blocked;  /* a directory holds its name (or, with --compress, its .zst's) */
    bool from_zst; /* --dry-run: no file but a .zst, which the real run unpacks and keeps */
} plan;

/* Whether `path` is a directory, which no table can be renamed over (a FIFO,
 * a device or a link there is replaced): reported by name. */
static bool name_blocked(const char *path)
{
    struct stat st;
    if (lstat(path, &st) != 0 || !S_ISDIR(st.st_mode))
        return false;
    fprintf(stderr, "npuzzle gen: %s is a directory; remove it, or give another --pdb-dir\n", path);
    return true;
}

/* Plan every pattern of `part`: sizes, memory, files already there; report
 * each problem on standard error. @return EXIT_OK, or the exit code of the
 * last problem. */
static int plan_patterns(plan *plans, int *nplans, const np_geom *g, const np_partition *part,
                         const build_opts *o)
{
    char b1[32], b2[32], b3[32], b4[32], b5[32];
    bool show = !o->quiet;
    int exit_code = EXIT_OK;
    uint64_t avail = np_mem_available();
    /* each pattern's table, then (--dual) the tables its dual lookups use;
     * with --zero-aware each of them in its zero-aware form as well */
    int n = 0;
    for (int i = 0; i < part->npatterns; i++) {
        np_pdb_table_spec specs[2 * NP_MAX_CELLS];
        int ns = o->dual
            ? np_pdb_dual_tables(g, part->patterns[i].tiles, part->patterns[i].ntiles, specs)
            : 0;
        for (int q = 0; q < 2 * (ns + 1) && n < BUILD_MAX_PLANS; q++) {
            const int r = q / 2 - 1; /* -1: the pattern's own table */
            if (q % 2 && !o->zero_aware)
                continue;
            plan *pl = &plans[n++];
            memset(pl, 0, sizeof *pl);
            pl->pat = &part->patterns[i];
            pl->za = q % 2; /* after the plain table */
            if (r >= 0) {
                pl->own.ntiles = specs[r].ntiles;
                memcpy(pl->own.tiles, specs[r].tiles, (size_t)specs[r].ntiles);
                pl->pat = &pl->own;
                pl->goal_region = specs[r].goal_region;
            }
        }
    }
    *nplans = n;
    for (int i = 0; i < n; i++) {
        plan *pl = &plans[i];
        char name[256];
        if (pl->za)
            np_pdb_filename_region_za(name, sizeof name, g, pl->pat->tiles, pl->pat->ntiles,
                                      pl->goal_region);
        else
            np_pdb_filename_region(name, sizeof name, g, pl->pat->tiles, pl->pat->ntiles,
                                   pl->goal_region);
        snprintf(pl->path, sizeof pl->path, "%s/%s", o->dir, name);
        snprintf(pl->zst, sizeof pl->zst, "%s/%s.zst", o->dir, name);
        /* found now, not after the build of minutes that the rename would end */
        pl->blocked = name_blocked(pl->path) || (o->zlevel && name_blocked(pl->zst));
        if (pl->blocked)
            exit_code = EXIT_PDB;
        int erc = np_pdb_gen_estimate_for(&pl->est, g, pl->pat->tiles, pl->pat->ntiles);
        char tiles[128];
        np_pattern_format(tiles, sizeof tiles, pl->pat, ',');
        double placements = 1; /* of the tiles and the blank, when too many */
        for (int t = 0; erc == NP_ETOOBIG && t <= pl->pat->ntiles; t++)
            placements *= g->cells - t;
        if (erc == NP_ETOOBIG && placements >= 0x1p64) {
            /* past what 64-bit sizes count: say how far past */
            fprintf(stderr,
                    "npuzzle gen: pattern %s: %.3g placements (%d tiles and the blank on %d "
                    "cells), too many to index in 64 bits, let alone to hold; use a partition "
                    "with smaller patterns\n",
                    tiles, placements, pl->pat->ntiles, g->cells);
            exit_code = cli_exit_for_error(erc);
            pl->fits = false;
            pl->too_big = true;
            continue;
        }
        if (erc != NP_OK) {
            fprintf(stderr, "npuzzle gen: pattern %s: %s\n", tiles, np_strerror(erc));
            exit_code = cli_exit_for_error(erc);
            pl->fits = false;
            continue;
        }
        /* the zero-aware part: a byte more per entry (np_pdb_gen_opts.region_gain) */
        uint64_t need =
            pl->est.table_bytes + pl->est.work_bytes + (pl->za ? pl->est.table_bytes : 0);
        uint64_t have = avail ? avail : pl->est.available;
        pl->fits = (!have || need <= have) && (!o->max_memory || need <= o->max_memory);
        char zpart[64] = "";
        if (pl->za)
            snprintf(zpart, sizeof zpart, " + regions %s",
                     np_format_bytes(b5, sizeof b5, pl->est.table_bytes));
        if (show || !pl->fits)
            fprintf(stderr,
                    "  table %d/%d %s%s%s: %llu entries, %llu states; table %s%s + work %s = %s; "
                    "available %s%s%s\n",
                    i + 1, n, tiles, pl->pat == &pl->own ? " (for the dual lookups)" : "",
                    pl->za ? " (zero-aware)" : "", (unsigned long long)pl->est.entries,
                    (unsigned long long)pl->est.states,
                    np_format_bytes(b1, sizeof b1, pl->est.table_bytes), zpart,
                    np_format_bytes(b2, sizeof b2, pl->est.work_bytes),
                    np_format_bytes(b3, sizeof b3, need),
                    have ? np_format_bytes(b4, sizeof b4, have) : "unknown",
                    o->max_memory ? ", --max-memory " : "",
                    o->max_memory ? np_format_bytes(b5, sizeof b5, o->max_memory) : "");
        /* A valid file (or, unless --dry-run, a .zst that unpacks to one) is kept. */
        if (o->dry_run && !o->force && !pl->blocked && !file_exists(pl->path) &&
            regular_file(pl->zst))
            pl->from_zst = true;
        if (!o->force && !pl->blocked &&
            (file_exists(pl->path) || (!o->dry_run && file_exists(pl->zst)))) {
            np_pdb_expect ex = {g->rows,         g->cols,        (int)g->goal,
                                pl->pat->ntiles, pl->pat->tiles, pl->goal_region};
            np_pdb *old = NULL;
            char err[PATH_MAX + 1024];
            int orc = np_pdb_open(&old, pl->path, &ex, err, sizeof err);
            if (orc == NP_OK && (np_pdb_encoding(old) == NP_PDB_ENC_ZA) != pl->za) {
                snprintf(err, sizeof err, "%s: %s, not the %s encoding", pl->path,
                         np_pdb_encoding_name(np_pdb_encoding(old)),
                         pl->za ? "zero-aware" : "plain");
                orc = NP_EMISMATCH;
            }
            np_pdb_close(old);
            if (orc == NP_OK) {
                pl->keep = true;
            } else if (show) {
                fprintf(stderr, "  %s (%s)\n", o->dry_run ? "would rebuild" : "rebuilding", err);
            }
        }
        if (!pl->fits && !pl->keep && !pl->from_zst) {
            fprintf(
                stderr,
                "npuzzle gen: pattern %s needs %s but only %s is available%s; "
                "use a partition with smaller patterns, or free memory (or raise a ulimit or control "
                "group limit)\n",
                tiles, np_format_bytes(b1, sizeof b1, need),
                np_format_bytes(b2, sizeof b2,
                                o->max_memory && (!have || o->max_memory < have) ? o->max_memory
                                                                                 : have),
                o->max_memory && (!have || o->max_memory < have) ? " (--max-memory)" : "");
            exit_code = EXIT_PDB;
        }
    }
    return exit_code;
}

/* --dry-run: one line per plan on `report`. */
static void report_plans(const plan *plans, int nplans, const build_opts *o, FILE *report)
{
    char b1[32], b2[32], b3[32];
    for (int i = 0; i < nplans; i++) {
        const plan *pl = &plans[i];
        uint64_t e = pl->est.entries;
        const char *state = pl->blocked ? "BLOCK"
            : pl->keep                  ? "keep "
            : pl->from_zst              ? "unzst"
            : !pl->fits                 ? "NOFIT"
                                        : "build";
        const uint64_t mem = pl->est.table_bytes + pl->est.work_bytes + (pl->za ? e : 0);
        if (pl->too_big)
            fprintf(report, "%s %s: more placements than 64 bits count\n", state, pl->path);
        else if (pl->za)
            fprintf(report, "%s %s: %llu entries, file %s (zero-aware), memory %s%s\n", state,
                    pl->path, (unsigned long long)e,
                    np_format_bytes(b1, sizeof b1,
                                    NP_PDB_ALIGN + np_pdb_payload_bytes(NP_PDB_ENC_ZA, e)),
                    np_format_bytes(b3, sizeof b3, mem), o->zlevel ? ", plus .zst" : "");
        else
            fprintf(report, "%s %s: %llu entries, file %s (8-bit) or %s (4-bit), memory %s%s\n",
                    state, pl->path, (unsigned long long)e,
                    np_format_bytes(b1, sizeof b1,
                                    NP_PDB_ALIGN + np_pdb_payload_bytes(NP_PDB_ENC_8BIT, e)),
                    np_format_bytes(b2, sizeof b2,
                                    NP_PDB_ALIGN + np_pdb_payload_bytes(NP_PDB_ENC_4BIT, e)),
                    np_format_bytes(b3, sizeof b3, mem), o->zlevel ? ", plus .zst" : "");
    }
}

/* Build each planned table that is not kept, compress it when asked, and
 * report each file on `report`; stop at the first problem or signal.
 * @return an exit code. */
static int build_plans(plan *plans, const np_geom *g, int nplans, const build_opts *o, FILE *report)
{
    char b1[32], b2[32];
    bool show = !o->quiet;
    int exit_code = EXIT_OK;
    for (int i = 0; i < nplans && exit_code == EXIT_OK; i++) {
        plan *pl = &plans[i];
        char tiles[128], err[1024];
        np_pattern_format(tiles, sizeof tiles, pl->pat, ',');
        double t0 = np_clock();
        uint64_t zbytes = 0;
        int enc = 0;
        bool built = false;
        if (!pl->keep) {
            progress_ctx pc = {.bar = o->progress || isatty(STDERR_FILENO),
                               .quiet = o->quiet,
                               .index = i,
                               .count = nplans};
            np_pdb_gen_opts go = {.threads = o->threads,
                                  .goal_region = pl->goal_region,
                                  .max_memory = o->max_memory,
                                  .progress = on_progress,
                                  .progress_ctx = &pc,
                                  .cancel = &interrupted};
            uint8_t *values = NULL, *gain = NULL;
            uint64_t entries = 0;
            if (pl->za)
                go.region_gain = &gain;
            if (show)
                fprintf(stderr, "  building %s\n", pl->path);
            int grc = np_pdb_generate(&values, &entries, g, pl->pat->tiles, pl->pat->ntiles, &go);
            if (pc.bar && show)
                fputc('\n', stderr);
            if (grc == NP_OK && interrupted)
                grc = NP_EINTR; /* the signal came after the last level: still a stopped run */
            if (grc != NP_OK) {
                free(values);
                free(gain);
                if (grc == NP_EINTR)
                    report_not_written(pl->path);
                else
                    fprintf(stderr, "npuzzle gen: pattern %s: %s\n", tiles, np_strerror(grc));
                exit_code = cli_exit_for_error(grc);
                break;
            }
            np_pdb_write_opts wo = {.encoding = pl->za ? NP_PDB_ENC_ZA
                                        : o->eight_bit ? NP_PDB_ENC_8BIT
                                                       : NP_PDB_ENC_AUTO,
                                    .goal_region = pl->goal_region,
                                    .threads = o->threads,
                                    .cancel = &interrupted,
                                    .region_gain = gain};
            np_pdb_write_info wi;
            int wrc = np_pdb_write(pl->path, g, pl->pat->tiles, pl->pat->ntiles, values, entries,
                                   &wo, &wi, err, sizeof err);
            free(values);
            free(gain);
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
        /* A .zst kept beside a kept table must unpack to it: else it is
         * written again. */
        bool zst_stale = false;
        if (o->zlevel && !built && file_exists(pl->zst)) {
            char zerr[1024];
            if (np_pdb_zst_compare(pl->zst, pl->path, zerr, sizeof zerr) != NP_OK) {
                fprintf(stderr, "npuzzle gen: %s; compressing it again\n", zerr);
                zst_stale = true;
            }
        }
        if (o->zlevel && (built || zst_stale || !file_exists(pl->zst))) {
            if (show)
                fprintf(stderr, "  compressing %s (zstd level %d)\n", pl->zst, o->zlevel);
            compressing_mt = o->threads > 1;
            int zrc = np_pdb_compress_cancel(pl->path, pl->zst, o->zlevel, o->threads, &interrupted,
                                             &zbytes, err, sizeof err);
            compressing_mt = 0;
            if (zrc == NP_EINTR) {
                /* a .zst there is an earlier one's (else none was written) */
                const bool removed = regular_file(pl->zst) && unlink(pl->zst) == 0;
                fprintf(stderr, "npuzzle gen: interrupted; %s written, %s not%s\n", pl->path,
                        pl->zst, removed ? " (the earlier one there removed)" : "");
                exit_code = EXIT_INTERRUPTED;
                break;
            }
            if (zrc != NP_OK) {
                fprintf(stderr, "npuzzle gen: %s\n", err);
                exit_code = cli_exit_for_pdb_error(zrc);
                break;
            }
        } else if (built && regular_file(pl->zst)) {
            /* The .zst holds the table this run replaced (with --force,
             * maybe the same), or another, or is damaged (why the table was
             * built): nothing says which, and left there it would be unpacked
             * for the table once the .pdb is gone. */
            if (unlink(pl->zst) == 0)
                fprintf(stderr,
                        "npuzzle gen: removed %s: it was written before this build and may not "
                        "hold its table (--compress writes it anew)\n",
                        pl->zst);
            else
                fprintf(stderr,
                        "npuzzle gen: warning: %s was written before this build and may not "
                        "hold its table, and cannot be removed (%s): delete it\n",
                        pl->zst, strerror(errno));
        } else if (regular_file(pl->zst)) {
            zbytes = file_bytes(pl->zst);
        }
        double secs = np_clock() - t0;
        if (report) {
            fprintf(report, "%s  %s  %s", pl->path, np_pdb_encoding_name(enc),
                    np_format_bytes(b1, sizeof b1, file_bytes(pl->path)));
            if (zbytes)
                fprintf(report, "  zst %s", np_format_bytes(b2, sizeof b2, zbytes));
            fprintf(report, "  %.2f s%s\n", secs, built ? "" : "  (kept; --force rebuilds)");
            fflush(report);
        }
        if (interrupted && i + 1 < nplans) {
            fprintf(stderr, "npuzzle gen: interrupted; stopping after %s\n", pl->path);
            exit_code = EXIT_INTERRUPTED;
        }
    }
    /* a signal during the last table's compression (which finishes its file) */
    if (interrupted && exit_code == EXIT_OK)
        exit_code = EXIT_INTERRUPTED;
    return exit_code;
}

/* Whether a file can be created in `dir` (tried, as permissions do not tell
 * it for root or a read-only mount): before a build of minutes, not after.
 * On false, errno says why. */
static bool dir_writable(const char *dir)
{
    char probe[PATH_MAX];
    if (snprintf(probe, sizeof probe, "%s/.npuzzle-probe-XXXXXX", dir) >= (int)sizeof probe) {
        errno = ENAMETOOLONG;
        return false;
    }
    int fd = mkstemp(probe);
    if (fd < 0)
        return false;
    close(fd);
    unlink(probe);
    return true;
}

int build_pattern_too_large(const np_geom *g, const np_partition *part)
{
    /* With fewer than two free tiles, parity leaves placements unreachable. */
    for (int i = 0; i < part->npatterns; i++)
        if (part->patterns[i].ntiles > BUILD_MAX_TILES(g))
            return i;
    return -1;
}

int build_partition(const np_geom *g, const np_partition *part, const build_opts *o, FILE *report)
{
    const int big = build_pattern_too_large(g, part);
    if (big >= 0) {
        fprintf(stderr, "npuzzle gen: pattern %d has %d tiles; at most %d on a %dx%d board\n",
                big + 1, part->patterns[big].ntiles, BUILD_MAX_TILES(g), g->rows, g->cols);
        return EXIT_USAGE;
    }
    struct stat dst;
    const int drc = o->dry_run ? stat(o->dir, &dst) : 0;
    if (o->dry_run && ((drc == 0 && !S_ISDIR(dst.st_mode)) || (drc != 0 && errno == ENOTDIR))) {
        /* a dry run creates nothing, but meets what the run would: a file
         * at the name, or under a file */
        fprintf(stderr, "npuzzle gen: cannot create the PDB directory %s: %s\n", o->dir,
                strerror(ENOTDIR));
        return EXIT_PDB;
    }
    if (!o->dry_run && make_dirs(o->dir) != 0) {
        fprintf(stderr, "npuzzle gen: cannot create the PDB directory %s: %s\n", o->dir,
                strerror(errno));
        return EXIT_PDB;
    }
    if (!o->quiet) {
        char pname[512];
        np_partition_format(pname, sizeof pname, part);
        fprintf(stderr,
                "npuzzle gen: %s partition %s (%s) on %dx%d, %s goal, %d thread%s, into %s\n",
                part->name, pname, o->eight_bit ? "8-bit" : "4-bit when it fits", g->rows, g->cols,
                np_goal_name(g->goal), o->threads, o->threads == 1 ? "" : "s", o->dir);
    }

    /* The first SIGINT, SIGTERM or SIGHUP (a closed terminal; not when
     * ignored, as under nohup) stops the build cleanly (no file written, the
     * previous one kept); a second one kills at once. From the plan on:
     * looking at the files there may unpack a .pdb.zst, which then finishes. */
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_interrupt;
    sa.sa_flags = SA_RESETHAND;
    sigemptyset(&sa.sa_mask);
    struct sigaction old_int, old_term, old_hup;
    sigaction(SIGINT, &sa, &old_int);
    sigaction(SIGTERM, &sa, &old_term);
    sigaction(SIGHUP, NULL, &old_hup);
    if (old_hup.sa_handler != SIG_IGN)
        sigaction(SIGHUP, &sa, NULL);
    static plan plans[BUILD_MAX_PLANS];
    int nplans = 0;
    double t_all = np_clock();
    int exit_code = plan_patterns(plans, &nplans, g, part, o);
    if (o->dry_run)
        report_plans(plans, nplans, o, report);
    else if (exit_code == EXIT_OK && interrupted) {
        fprintf(stderr, "npuzzle gen: interrupted; nothing built\n");
        exit_code = EXIT_INTERRUPTED;
    } else if (exit_code == EXIT_OK) {
        /* Something to write: make sure it can be written before a build of
         * minutes (tables all kept need nothing of the directory). */
        bool build = false;
        for (int i = 0; i < nplans; i++)
            build |= !plans[i].keep;
        if (build && !dir_writable(o->dir)) {
            fprintf(stderr, "npuzzle gen: cannot write in the PDB directory %s: %s\n", o->dir,
                    strerror(errno));
            exit_code = EXIT_PDB;
        } else {
            exit_code = build_plans(plans, g, nplans, o, report);
        }
    }
    /* `solve --gen` builds in its own process: give its signals back. */
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGTERM, &old_term, NULL);
    sigaction(SIGHUP, &old_hup, NULL);
    interrupted = 0;
    if (o->dry_run)
        return exit_code;
    if (exit_code == EXIT_OK && !o->quiet)
        fprintf(stderr, "npuzzle gen: done in %.2f s\n", np_clock() - t_all);
    return exit_code;
}
