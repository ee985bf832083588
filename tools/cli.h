/* cli.h - what the npuzzle subcommands share: exit codes, option helpers, environment. */
#ifndef NPUZZLE_CLI_H
#define NPUZZLE_CLI_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* The exit codes of every subcommand, as the README and `npuzzle --help` list
 * them: 0-3 the project's contract, 130 as a shell reports a job stopped by
 * Ctrl-C (128 + SIGINT). */
enum {
    EXIT_OK = 0,           /* all solved (unsolvable answered as such counts); gen, info
                            * and verify: done, a valid file, every answer right */
    EXIT_FAIL = 1,         /* a --check mismatch, or a limit reached; verify: an answer
                            * wrong or missing */
    EXIT_USAGE = 2,        /* bad usage or bad input */
    EXIT_PDB = 3,          /* a PDB or I/O error (missing, corrupt or mismatched file,
                            * a table that does not fit in memory, no memory) */
    EXIT_INTERRUPTED = 130 /* SIGINT, SIGTERM or SIGHUP stopped a table build (gen, solve --gen);
                            * the table being built is not written */
};

/* Map a library error code to an exit code: NP_EPARSE and NP_EINVAL are bad
 * usage or input, NP_ELIMIT a limit reached, NP_EINTR an interrupted run, any
 * other error a PDB or I/O error. This function and cli_exit_for_pdb_error()
 * map library errors to exit codes wherever the code alone decides. Where
 * the call decides, the caller says so: a --partition or --pattern that
 * np_partition_resolve() refuses is bad usage (EXIT_USAGE) whatever its
 * code, and a board whose search failed inside the library (np_result.error)
 * is EXIT_PDB. Conditions that are no library error get theirs where they
 * are found: a rejected option value or input line is EXIT_USAGE; a file that
 * cannot be opened, read or created, or a table too big for memory, EXIT_PDB. */
int cli_exit_for_error(int np_err);

/* The same for an error while reading or writing a PDB file (np_pdb_open_ex,
 * np_pdb_write, np_pdb_compress, np_pdb_verify, np_pdbset_verify): there
 * NP_EINVAL and NP_EPARSE mean a bad file or table, not a bad command line,
 * so they are PDB errors too. */
int cli_exit_for_pdb_error(int np_err);

/* Subcommands: argc/argv start at the subcommand name. */
int cmd_solve(int argc, char **argv);
int cmd_gen(int argc, char **argv);
int cmd_info(int argc, char **argv);
int cmd_verify(int argc, char **argv);
int cmd_random(int argc, char **argv);

/* Usage text of a subcommand, for `npuzzle help CMD` and `CMD --help`. */
void usage_solve(void);
void usage_gen(void);
void usage_info(void);
void usage_verify(void);
void usage_random(void);

/* The PDB directory: --pdb-dir if given, else $NPUZZLE_PDB_DIR, else
 * $XDG_CACHE_HOME/npuzzle, else ~/.cache/npuzzle. Returns a malloc'd string. */
char *cli_pdb_dir(const char *option_value);

/* The most threads -j takes; OMP_NUM_THREADS beyond it counts as this many. */
#define CLI_MAX_THREADS 1024

/* Thread count: -j N if given (>0), else OMP_NUM_THREADS (via omp_get_max_threads)
 * up to CLI_MAX_THREADS. */
int cli_threads(int option_value);

/* The memory each A* board gets when `all` boards of a size share `threads`
 * threads, a board a thread: its part of max_memory (0: of three quarters of
 * MemAvailable, which each would otherwise take whole), never 0 (no limit);
 * max_memory itself when they are not side by side. */
uint64_t cli_astar_share(uint64_t max_memory, size_t all, int threads);

/* How many of `all` A* boards of a size run side by side on `threads`
 * threads (the share's divisor): 1 when they are not side by side. */
size_t cli_astar_side(size_t all, int threads);

/* The value of --pdb-dir, or NULL (reported) when it is empty: an unset
 * variable, most likely, which must not stand for the default directory. */
const char *cli_pdb_dir_option(const char *cmd, const char *value);

/* Flush standard output after command `cmd` finished with exit code rc; a
 * write error (a full disk, a closed pipe) is reported, and turns rc 0 or 1
 * into EXIT_PDB: results that were not written are not results.
 * @return the exit code to leave with. */
int cli_stdout_status(const char *cmd, int rc);

/* fflush(f) that, when f is standard output and the flush fails, keeps the
 * reason (errno) for cli_stdout_status, which runs later, after other calls
 * have changed errno. @return fflush's result. */
int cli_flush(FILE *f);

/* A write to standard output failed with errno `err` (0: none said why):
 * kept, unless one is already, for cli_stdout_status. */
void cli_stdout_failed(int err);

struct option;

/* After getopt_long(argc, argv, optstring, longopts, NULL) (optstring starting
 * with ':') returned c, ':' for an option without its value or anything else
 * for an unknown option (or a long one given a value it does not take): print
 * "npuzzle CMD: ..." naming the option as typed (a short one by its letter,
 * even inside a group such as -qx) and pointing to `npuzzle help CMD`.
 * @return EXIT_USAGE. */
int cli_option_error(const char *cmd, int c, char **argv, const struct option *longopts);

/* Parse "RxC" into rows, cols. Returns false when malformed. */
bool cli_parse_size(const char *s, int *rows, int *cols);

/* Parse a non-negative integer / number option; print "npuzzle CMD: bad value for OPT: 'X'" and
 * return false when malformed. */
bool cli_parse_u64(const char *cmd, const char *opt, const char *s, uint64_t *out);
bool cli_parse_double(const char *cmd, const char *opt, const char *s, double *out);

/* Whether `length` is within W times `opt`, in whole thousandths as IDA*
 * takes W (np_weight_milli; A*'s tenth is no larger): a length of exactly
 * W x opt is (29 = 1.16 x 25, which doubles make 28.999999999999996). */
bool cli_within_weight(long length, long opt, double weight);

/* A byte count of at least 1 with an optional K, M, G or T suffix (powers of
 * 1024); 0 is refused (a memory limit of nothing). */
bool cli_parse_bytes(const char *cmd, const char *opt, const char *s, uint64_t *out);

/* Whether s is well-formed UTF-8 (RFC 3629), as json text is. */
bool cli_utf8_valid(const char *s);

/* Write s as a JSON string literal (quotes, backslashes and control bytes escaped;
 * a byte that is not part of well-formed UTF-8 written as U+FFFD). */
void cli_json_string(FILE *out, const char *s);

#endif
