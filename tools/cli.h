/* cli.h - what the npuzzle subcommands share: exit codes, option helpers, environment. */
#ifndef NPUZZLE_CLI_H
#define NPUZZLE_CLI_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* Exit codes fixed by DESIGN.md. */
enum {
    EXIT_OK = 0,       /* all solved (unsolvable answered as such counts) */
    EXIT_FAIL = 1,     /* a --check mismatch, or a limit reached */
    EXIT_USAGE = 2,    /* bad usage or bad input */
    EXIT_PDB = 3       /* a PDB or I/O error */
};

/* Map a library error code to the exit code of DESIGN.md (the one place that does). */
int cli_exit_for_error(int np_err);

/* Subcommands: argc/argv start at the subcommand name. */
int cmd_solve(int argc, char **argv);
int cmd_gen(int argc, char **argv);
int cmd_info(int argc, char **argv);
int cmd_verify(int argc, char **argv);

/* Usage text of a subcommand, for `npuzzle help CMD` and `CMD --help`. */
void usage_solve(void);
void usage_gen(void);
void usage_info(void);
void usage_verify(void);

/* The PDB directory: --pdb-dir if given, else $NPUZZLE_PDB_DIR, else
 * $XDG_CACHE_HOME/npuzzle, else ~/.cache/npuzzle. Returns a malloc'd string. */
char *cli_pdb_dir(const char *option_value);

/* Thread count: -j N if given (>0), else OMP_NUM_THREADS (via omp_get_max_threads). */
int cli_threads(int option_value);

/* Parse "RxC" into rows, cols. Returns false when malformed. */
bool cli_parse_size(const char *s, int *rows, int *cols);

/* Parse a non-negative integer / number option; print "npuzzle CMD: bad value for OPT: 'X'" and
 * return false when malformed. */
bool cli_parse_u64(const char *cmd, const char *opt, const char *s, uint64_t *out);
bool cli_parse_double(const char *cmd, const char *opt, const char *s, double *out);
/* A byte count with an optional K, M, G or T suffix (powers of 1024). */
bool cli_parse_bytes(const char *cmd, const char *opt, const char *s, uint64_t *out);

/* Write s as a JSON string literal (quotes, backslashes and control bytes escaped). */
void cli_json_string(FILE *out, const char *s);

#endif
