/* cli.c - helpers shared by the subcommands: exit codes, environment, option values. */
#include "cli.h"

#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "np_utf8.h"
#include "npuzzle.h"

int cli_exit_for_error(int np_err)
{
    switch (np_err) {
    case NP_OK: return EXIT_OK;
    case NP_EPARSE:
    case NP_EINVAL: return EXIT_USAGE;
    case NP_ELIMIT: return EXIT_FAIL;
    case NP_EINTR: return EXIT_INTERRUPTED;
    default: return EXIT_PDB;
    }
}

int cli_exit_for_pdb_error(int np_err)
{
    int code = cli_exit_for_error(np_err);
    return code == EXIT_USAGE ? EXIT_PDB : code;
}

char *cli_pdb_dir(const char *option_value)
{
    if (option_value && *option_value)
        return strdup(option_value);
    const char *env = getenv("NPUZZLE_PDB_DIR");
    if (env && *env)
        return strdup(env);
    const char *xdg = getenv("XDG_CACHE_HOME");
    char buf[4096];
    if (xdg && *xdg) {
        snprintf(buf, sizeof buf, "%s/npuzzle", xdg);
        return strdup(buf);
    }
    const char *home = getenv("HOME");
    snprintf(buf, sizeof buf, "%s/.cache/npuzzle", home && *home ? home : ".");
    return strdup(buf);
}

int cli_threads(int option_value)
{
    if (option_value > 0)
        return option_value;
    int n = omp_get_max_threads();
    return n < 1 ? 1 : n > CLI_MAX_THREADS ? CLI_MAX_THREADS : n;
}

size_t cli_astar_side(size_t all, int threads)
{
    if (threads < 2 || all < 2)
        return 1;
    return all < (size_t)threads ? all : (size_t)threads;
}

uint64_t cli_astar_share(uint64_t max_memory, size_t all, int threads)
{
    const size_t side = cli_astar_side(all, threads);
    if (side < 2)
        return max_memory;
    uint64_t total = max_memory;
    if (!total) {
        const uint64_t avail = np_mem_available();
        total = avail / 4 * 3;
    }
    if (!total) /* MemAvailable unknown: each takes the default, as alone */
        return max_memory;
    return (total / side) ? (total / side) : 1; /* 0 would mean no limit */
}

int cli_option_error(const char *cmd, int c, char **argv, const struct option *longopts)
{
    /* The word getopt last stepped past: the option itself, except for a short
     * option inside a group that goes on (-xq), where it is the word before. */
    const char *word = argv[optind - 1];
    const char *eq = strncmp(word, "--", 2) == 0 ? strchr(word, '=') : NULL;
    if (c != ':' && eq) {
        for (const struct option *o = longopts; o->name; o++)
            if (o->has_arg == no_argument && strlen(o->name) == (size_t)(eq - word - 2) &&
                strncmp(o->name, word + 2, (size_t)(eq - word - 2)) == 0) {
                fprintf(stderr, "npuzzle %s: option '--%s' takes no value (see npuzzle help %s)\n",
                        cmd, o->name, cmd);
                return EXIT_USAGE;
            }
    }
    /* A short option's letter is in optopt (a long one's optopt is 0 when
     * unknown, and its word is the option when it lacks its value). */
    const bool short_opt =
        optopt > ' ' && optopt < 127 && !(c == ':' && strncmp(word, "--", 2) == 0);
    char letter[3] = {'-', (char)optopt, 0};
    fprintf(stderr,
            c == ':' ? "npuzzle %s: option '%s' needs a value (see npuzzle help %s)\n"
                     : "npuzzle %s: unknown option '%s' (see npuzzle help %s)\n",
            cmd, short_opt ? letter : word, cmd);
    return EXIT_USAGE;
}

bool cli_parse_size(const char *s, int *rows, int *cols)
{
    char *end;
    errno = 0;
    if (!isdigit((unsigned char)*s))
        return false;
    long r = strtol(s, &end, 10);
    if (end == s || (*end != 'x' && *end != 'X'))
        return false;
    const char *p = end + 1;
    if (!isdigit((unsigned char)*p))
        return false;
    long c = strtol(p, &end, 10);
    if (end == p || *end || errno)
        return false;
    if (r < NP_MIN_SIDE || r > NP_MAX_SIDE || c < NP_MIN_SIDE || c > NP_MAX_SIDE)
        return false;
    *rows = (int)r;
    *cols = (int)c;
    return true;
}

bool cli_parse_u64(const char *cmd, const char *opt, const char *s, uint64_t *out)
{
    char *end;
    errno = 0;
    if (!s || !isdigit((unsigned char)*s)) { /* strtoull would take " -1" or "+1" */
        fprintf(stderr, "npuzzle %s: bad value for %s: '%s' (expected a non-negative integer)\n",
                cmd, opt, s ? s : "");
        return false;
    }
    unsigned long long v = strtoull(s, &end, 10);
    if (*end || errno) {
        fprintf(stderr, "npuzzle %s: bad value for %s: '%s' (expected a non-negative integer)\n",
                cmd, opt, s);
        return false;
    }
    *out = v;
    return true;
}

bool cli_parse_double(const char *cmd, const char *opt, const char *s, double *out)
{
    char *end;
    errno = 0;
    /* digits with an optional fraction and exponent: not the hexadecimal,
     * "inf" or leading-space forms strtod also takes */
    if (!s)
        s = "";
    bool plain = isdigit((unsigned char)*s) || (*s == '.' && isdigit((unsigned char)s[1]));
    for (const char *p = s; plain && *p; p++)
        if (!isdigit((unsigned char)*p) && !strchr(".eE+-", *p))
            plain = false;
    double v = plain ? strtod(s, &end) : -1;
    if (!plain || *end || errno || !(v >= 0) || !isfinite(v)) {
        fprintf(stderr, "npuzzle %s: bad value for %s: '%s' (expected a non-negative number)\n",
                cmd, opt, s);
        return false;
    }
    *out = v;
    return true;
}

bool cli_within_weight(long length, long opt, double weight)
{
    return (int64_t)length * 1000 <= (int64_t)np_weight_milli(weight) * opt;
}

bool cli_parse_bytes(const char *cmd, const char *opt, const char *s, uint64_t *out)
{
    char *end;
    errno = 0;
    if (!s || !isdigit((unsigned char)*s)) { /* digits first: not "K", " -1" or "+1" */
        fprintf(stderr,
                "npuzzle %s: bad value for %s: '%s' (bytes, with an optional K, M, G or T)\n", cmd,
                opt, s ? s : "");
        return false;
    }
    unsigned long long v = strtoull(s, &end, 10);
    uint64_t mult = 1;
    if (*end == 'K' || *end == 'k')
        mult = 1ull << 10;
    else if (*end == 'M' || *end == 'm')
        mult = 1ull << 20;
    else if (*end == 'G' || *end == 'g')
        mult = 1ull << 30;
    else if (*end == 'T' || *end == 't')
        mult = 1ull << 40;
    if (mult > 1) {
        end++;
        if (*end == 'i')
            end++;
        if (*end == 'B' || *end == 'b')
            end++;
    }
    if (*end || errno || end == s || (v && mult > UINT64_MAX / v)) {
        fprintf(stderr,
                "npuzzle %s: bad value for %s: '%s' (bytes, with an optional K, M, G or T)\n", cmd,
                opt, s);
        return false;
    }
    if (v == 0) { /* a limit of nothing: not the default in disguise */
        fprintf(stderr,
                "npuzzle %s: bad value for %s: '%s' allows no memory at all (leave %s out for "
                "the default)\n",
                cmd, opt, s, opt);
        return false;
    }
    *out = (uint64_t)v * mult;
    return true;
}

bool cli_utf8_valid(const char *s)
{
    return np__utf8_valid(s, strlen(s));
}

void cli_json_string(FILE *out, const char *s)
{
    fputc('"', out);
    const unsigned char *p = (const unsigned char *)s, *end = p + strlen(s);
    while (p < end) {
        const int n = np__utf8_sequence(p, (size_t)(end - p));
        if (*p == '"' || *p == '\\')
            fprintf(out, "\\%c", *p);
        else if (*p < 0x20)
            fprintf(out, "\\u%04x", *p);
        else if (n == 0)
            fputs("\\ufffd", out); /* not UTF-8 (a file name's byte): the replacement */
        else
            fwrite(p, 1, (size_t)n, out);
        p += n ? n : 1;
    }
    fputc('"', out);
}

static int stdout_errno; /* why a flush of standard output failed first; 0: none has */

int cli_flush(FILE *f)
{
    errno = 0;
    int r = fflush(f);
    if (f == stdout && (r != 0 || ferror(f)))
        cli_stdout_failed(errno);
    return r;
}

void cli_stdout_failed(int err)
{
    if (err && !stdout_errno)
        stdout_errno = err;
}

int cli_stdout_status(const char *cmd, int rc)
{
    if (cli_flush(stdout) == 0 && !ferror(stdout))
        return rc;
    int e = stdout_errno;
    fprintf(stderr, "npuzzle %s: write error on standard output%s%s\n", cmd, e ? ": " : "",
            e ? strerror(e) : "");
    return rc == EXIT_OK || rc == EXIT_FAIL ? EXIT_PDB : rc;
}

const char *cli_pdb_dir_option(const char *cmd, const char *value)
{
    if (value && *value)
        return value;
    fprintf(stderr, "npuzzle %s: --pdb-dir: empty (give a directory)\n", cmd);
    return NULL;
}
