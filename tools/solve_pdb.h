/* solve_pdb.h - finding, building and mapping the PDBs `npuzzle solve` uses. */
#ifndef NPUZZLE_SOLVE_PDB_H
#define NPUZZLE_SOLVE_PDB_H

#include <stdbool.h>

#include "npuzzle.h"

typedef struct solve_pdb_ctx {
    np_pdbset *set; /* NULL when no tables are used */
} solve_pdb_ctx;

/* Open the PDB set for boards of geometry g: `partition` (NULL = the board's
 * default), from the directory cli_pdb_dir(pdb_dir_opt); with `gen`, build
 * missing files first (build_partition, its report on standard error unless
 * `quiet`). When
 * `required` is false and the files are missing, returns EXIT_OK with
 * ctx->set == NULL (the caller falls back to another heuristic). Otherwise
 * prints a message naming the file and the command that builds it, and
 * returns an exit code (EXIT_INTERRUPTED when a signal stopped the build).
 * `flags` go to np_pdbset_open: without NP_PDBSET_PRIVATE_COPY the tables
 * are used straight from the shared read-only mapping, fastest when the page
 * cache holds the files in 2 MiB pages (as npuzzle gen leaves them); with it
 * from a private copy on huge pages (--pdb-private), a fallback for files the
 * page cache holds in 4 KiB pages (copied or read by other tools), at the
 * cost of a copy per process. With NP_PDBSET_DUAL the tables of other goal
 * regions are opened too (built by `gen`; a note names the first missing one
 * otherwise). NP_PDBSET_STAMP skips the checksum of tables verified before
 * and unchanged since (not --verify-tables). NP_PDBSET_ZERO_AWARE insists on
 * the zero-aware tables; without it, `za_if_present` takes them when every
 * one of the partition's is there (else the plain ones, silently). */
int solve_pdb_open(solve_pdb_ctx *ctx, const np_geom *g, const char *partition,
                   const char *pdb_dir_opt, bool gen, int threads, bool quiet, bool required,
                   unsigned flags, bool za_if_present);

/* Whether partition `part` suits boards of geometry g (the first of which is
 * at `where`, FILE:LINE): no pattern may hold more tiles than
 * BUILD_MAX_TILES(g), since no table of it can be built (gen refuses it), so
 * that such a partition is refused whether its tables are asked for or not.
 * Says which pattern. @return EXIT_OK or EXIT_USAGE. */
int solve_pdb_check_size(const np_geom *g, const np_partition *part, const char *where);

/* Before any board is searched, for boards of geometry g (the first of which
 * is at `where`, FILE:LINE) that need their tables (the options of
 * solve_pdb_open, `required` true, `gen` false): whether every table is there
 * (the plain ones, or the zero-aware ones when those are taken). Says what is
 * missing, naming the file and the command that builds it, so that a batch of
 * several sizes does not end at a later size's turn, its answers lost.
 * Damaged tables are found when they are opened. @return EXIT_OK or EXIT_PDB
 * (a table missing). */
int solve_pdb_precheck(const np_geom *g, const char *partition, const char *pdb_dir_opt,
                       unsigned flags, bool za_if_present, const char *where);

/* An example partition of the tiles of an RxC board, for messages: patterns
 * of 5 tiles (fewer on small boards, as gen allows), the first three shown,
 * e.g. "1,2,3/4,5" for 2x3. @return buf. */
char *solve_pdb_example(char *buf, size_t len, int rows, int cols);

void solve_pdb_close(solve_pdb_ctx *ctx);

#endif
