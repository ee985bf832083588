/* build.h - building the pattern databases of a partition into a directory (npuzzle gen, solve
 * --gen). */
#ifndef NPUZZLE_BUILD_H
#define NPUZZLE_BUILD_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "npuzzle.h"

/* How build_partition() builds. */
typedef struct build_opts {
    const char *dir;     /* the PDB directory; created (with its parents) unless dry_run */
    int threads;         /* threads for generating, writing and compressing (>= 1) */
    int zlevel;          /* also write FILE.pdb.zst at this zstd level; 0: no .zst */
    uint64_t max_memory; /* refuse a pattern needing more bytes; 0: MemAvailable is the limit */
    bool force;          /* rebuild files that exist and are valid */
    bool dry_run;        /* report what would be built and its sizes; build nothing */
    bool quiet;          /* no header, sizes or progress on standard error */
    bool progress;       /* draw a progress bar even when standard error is not a terminal */
    bool eight_bit;      /* store 8-bit values even where 4-bit ones fit */
    bool dual;           /* also the tables of other goal regions the dual lookups use */
    bool zero_aware;     /* also each pattern's zero-aware table (NAME-z.pdb) */
} build_opts;

/* Build the tables of every pattern of `part` for boards of geometry `g` into
 * o->dir as np_pdb_filename() names them, keeping valid files unless o->force.
 * Every pattern is planned first (sizes, memory, files there); nothing is
 * built when one does not fit. One summary line per file (with o->dry_run, per
 * plan) goes to `report` (NULL: none, not with o->dry_run); the header, sizes,
 * progress and every problem go to standard error as "npuzzle gen: ...". The
 * first SIGINT, SIGTERM or SIGHUP stops the build cleanly (the table in progress is not
 * written, a file it would replace is untouched; a second signal kills at
 * once); the caller's handlers of the three are restored before returning.
 * @return an exit code of cli.h: EXIT_OK; EXIT_USAGE (a pattern too large for
 *         the board, or malformed); EXIT_PDB (a pattern that does not fit in
 *         memory, or a file error); EXIT_INTERRUPTED. */
int build_partition(const np_geom *g, const np_partition *part, const build_opts *o, FILE *report);

/* The most tiles a pattern of board g may have: two cells besides the
 * blank's stay free, else parity leaves placements unreachable. */
#define BUILD_MAX_TILES(g) ((g)->cells - 3)

/* The index of the first pattern of `part` with more tiles than
 * BUILD_MAX_TILES(g), which build_partition refuses; -1 when none has. */
int build_pattern_too_large(const np_geom *g, const np_partition *part);

#endif
