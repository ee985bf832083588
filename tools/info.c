/* info.c - the `npuzzle info` subcommand: a PDB file's header, value histogram, and checksum
 * verdict. */
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "npuzzle.h"
#include "npuzzle/pdb_file.h"

void usage_info(void)
{
    printf("usage: npuzzle info [--format text|json] [-j N] FILE\n"
           "\n"
           "Describe a pattern database file: its header (board, goal, pattern, encoding,\n"
           "entries, payload), the histogram of its values over all placements, the mean\n"
           "and largest value (held to the header's), and whether the payload checksum\n"
           "verifies. FILE may be a .pdb, or a .pdb.zst (unpacked once next to it; when\n"
           "the .pdb is there, the .pdb.zst is checked to unpack to it, byte for byte); a\n"
           "missing .pdb whose .pdb.zst exists is unpacked too, unless it holds a table of\n"
           "another name (exit 3). A file under a name not its table's is described, with\n"
           "a note naming the table: npuzzle solve and gen refuse it under its own.\n"
           "\n"
           "options:\n"
           "  -f, --format FMT   text (default) or json (one object: file, format_version,\n"
           "                     generator, goal_region, rows, cols, goal, tiles,\n"
           "                     encoding (4bit, 8bit, 4bit+za), entries, payload_offset,\n"
           "                     payload_bytes, xxh3, checksum_ok, mean, max, histogram)\n"
           "  -j, --jobs N       threads for the histogram\n"
           "  -h, --help         this text\n"
           "\n"
           "Exit codes: 0 valid file, 2 bad usage, 3 missing, corrupt or unreadable file\n"
           "(the report is still printed when only the payload checksum fails), a header\n"
           "max value other than the values' own, or a write error on standard output.\n");
}

int cmd_info(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"format", required_argument, NULL, 'f'},
        {"jobs", required_argument, NULL, 'j'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    bool json = false;
    int jobs = 0, c;
    uint64_t u;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":f:j:h", longopts, NULL)) != -1) {
        switch (c) {
        case 'f':
            if (!strcmp(optarg, "text"))
                json = false;
            else if (!strcmp(optarg, "json"))
                json = true;
            else {
                fprintf(stderr, "npuzzle info: unknown format '%s' (text or json)\n", optarg);
                return EXIT_USAGE;
            }
            break;
        case 'j':
            if (!cli_parse_u64("info", "-j", optarg, &u))
                return EXIT_USAGE;
            if (u < 1 || u > CLI_MAX_THREADS) {
                fprintf(stderr, "npuzzle info: -j must be between 1 and %d, not '%s'\n",
                        CLI_MAX_THREADS, optarg);
                return EXIT_USAGE;
            }
            jobs = (int)u;
            break;
        case 'h': usage_info(); return EXIT_OK;
        default: return cli_option_error("info", c, argv, longopts);
        }
    }
    if (optind != argc - 1) {
        fprintf(stderr,
                optind >= argc ? "npuzzle info: no FILE given (see npuzzle help info)\n"
                               : "npuzzle info: one FILE only (see npuzzle help info)\n");
        return EXIT_USAGE;
    }

    /* FILE.pdb.zst stands for FILE.pdb: opening that unpacks the .zst when needed. */
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s", argv[optind]);
    size_t len = strlen(path);
    char err[1024];
    const bool zst_given = len > 8 && !strcmp(path + len - 8, ".pdb.zst");
    if (zst_given)
        path[len - 4] = '\0';
    /* whether the .pdb is made here (from its .zst, by the open below) */
    const bool unpacking = access(path, F_OK) != 0;
    if (zst_given) {
        /* the .zst itself is what was asked about: it must be that table */
        if (!unpacking) {
            int zrc = np_pdb_zst_compare(argv[optind], path, err, sizeof err);
            if (zrc != NP_OK) {
                fprintf(stderr, "npuzzle info: %s\n", err);
                return cli_exit_for_pdb_error(zrc);
            }
        }
    }

    np_pdb *pdb;
    int rc = np_pdb_open_ex(&pdb, path, NULL, NP_PDB_OPEN_NOVERIFY, err, sizeof err);
    if (rc != NP_OK) {
        fprintf(stderr, "npuzzle info: %s\n", err);
        return cli_exit_for_pdb_error(rc);
    }
    const np_pdb_header *h = np_pdb_get_header(pdb);
    np_geom g;
    rc = np_geom_init(&g, h->rows, h->cols, h->goal);
    /* The name solve and gen give this table: a file under another name is
     * one they refuse (by that name), and a .zst unpacked under a name not its
     * table's is not left there. */
    char canonical[256] = "";
    if (rc == NP_OK && h->encoding == NP_PDB_ENC_ZA)
        np_pdb_filename_region_za(canonical, sizeof canonical, &g, h->tiles, h->ntiles,
                                  h->goal_region);
    else if (rc == NP_OK)
        np_pdb_filename_region(canonical, sizeof canonical, &g, h->tiles, h->ntiles,
                               h->goal_region);
    const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    if (rc == NP_OK && strcmp(base, canonical) != 0) {
        if (unpacking) {
            fprintf(stderr, "npuzzle info: %s.zst: holds the table %s, not %s; not kept\n", path,
                    canonical, base);
            np_pdb_close(pdb);
            unlink(path);
            return EXIT_PDB;
        }
        fprintf(stderr,
                "npuzzle info: note: %s holds the table named %s: npuzzle solve and gen look "
                "for that name, and refuse this file under its own\n",
                path, canonical);
    }
    char verr[1024] = "";
    int vrc = np_pdb_verify(pdb, verr, sizeof verr);
    bool checksum_ok = vrc == NP_OK;

    static uint64_t hist[256];
    if (rc == NP_OK)
        rc = np_pdb_histogram(pdb, &g, hist, cli_threads(jobs));
    if (rc != NP_OK) {
        fprintf(stderr, "npuzzle info: %s: cannot read the values\n", path);
        np_pdb_close(pdb);
        return cli_exit_for_pdb_error(rc);
    }
    double sum = 0;
    int maxv = 0;
    for (int v = 0; v < 256; v++)
        if (hist[v]) {
            sum += (double)v * (double)hist[v];
            maxv = v;
        }
    double mean = h->entries ? sum / (double)h->entries : 0;
    char tiles[4 * NP_MAX_CELLS] = "";
    for (int i = 0, n = 0; i < h->ntiles; i++)
        n += snprintf(tiles + n, sizeof tiles - (size_t)n, i ? ",%d" : "%d", h->tiles[i]);

    if (json) {
        printf("{\"file\":");
        cli_json_string(stdout, path);
        printf(",\"format_version\":%u,\"generator\":", h->version);
        cli_json_string(stdout, h->generator);
        printf(",\"goal_region\":%d", h->goal_region ? h->goal_region - 1 : -1);
        printf(",\"rows\":%d,\"cols\":%d,\"goal\":\"%s\",\"tiles\":[%s],\"encoding\":\"%s\","
               "\"entries\":%llu,\"payload_offset\":%llu,\"payload_bytes\":%llu,"
               "\"xxh3\":\"%016llx\",\"checksum_ok\":%s,\"mean\":%.6f,\"max\":%d,\"histogram\":{",
               h->rows, h->cols, np_goal_name(h->goal), tiles, np_pdb_encoding_name(h->encoding),
               (unsigned long long)h->entries, (unsigned long long)h->payload_offset,
               (unsigned long long)h->payload_length, (unsigned long long)h->payload_xxh3,
               checksum_ok ? "true" : "false", mean, maxv);
        for (int v = 0, first = 1; v < 256; v++)
            if (hist[v]) {
                printf("%s\"%d\":%llu", first ? "" : ",", v, (unsigned long long)hist[v]);
                first = 0;
            }
        printf("}}\n");
    } else {
        char b[32];
        printf("file:            %s\n", path);
        printf("format:          version %u, written by %s\n", h->version,
               h->generator[0] ? h->generator : "unknown");
        printf("board:           %dx%d, %s goal\n", h->rows, h->cols, np_goal_name(h->goal));
        printf("pattern:         %s (%d tiles)\n", tiles, h->ntiles);
        if (h->goal_region)
            printf("goal region:     the blank in cell %d's region (a table for the dual "
                   "lookups)\n",
                   h->goal_region - 1);
        printf("encoding:        %s\n", np_pdb_encoding_name(h->encoding));
        printf("entries:         %llu\n", (unsigned long long)h->entries);
        printf("payload:         %s at offset %llu, xxh3 %016llx\n",
               np_format_bytes(b, sizeof b, h->payload_length),
               (unsigned long long)h->payload_offset, (unsigned long long)h->payload_xxh3);
        printf("checksum:        %s\n", checksum_ok ? "ok" : "MISMATCH");
        printf("max value:       %d\n", maxv);
        printf("mean value:      %.4f\n", mean);
        printf("histogram:       value  placements  fraction\n");
        for (int v = 0; v < 256; v++)
            if (hist[v])
                printf("                 %5d  %10llu  %8.4f%%\n", v, (unsigned long long)hist[v],
                       100.0 * (double)hist[v] / (double)h->entries);
    }
    cli_flush(stdout);
    const int header_max = h->max_value;
    np_pdb_close(pdb);
    if (!checksum_ok) {
        fprintf(stderr, "npuzzle info: %s\n", verr);
        return cli_exit_for_pdb_error(vrc);
    }
    /* The payload is as written; a header (checksummed too) that disagrees
     * with it was forged or miswritten. */
    if (header_max != maxv) {
        fprintf(stderr,
                "npuzzle info: %s: the header's max value is %d, but the values reach %d "
                "(header forged or miswritten)\n",
                path, header_max, maxv);
        return EXIT_PDB;
    }
    return EXIT_OK;
}
