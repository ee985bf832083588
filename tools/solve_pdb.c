/* solve_pdb.c - PDB lookup for `npuzzle solve` (pattern databases not wired in yet). */
#include "solve_pdb.h"

#include <stdio.h>

#include "cli.h"

int solve_pdb_open(solve_pdb_ctx *ctx, const np_geom *g, const char *partition,
                   const char *pdb_dir_opt, bool gen, int threads, bool quiet, bool required)
{
    (void)g; (void)partition; (void)pdb_dir_opt; (void)gen; (void)threads; (void)quiet;
    ctx->set = NULL;
    if (required) {
        fprintf(stderr, "npuzzle solve: the pdb heuristic is not available in this build yet; use -H md or lc\n");
        return EXIT_PDB;
    }
    return EXIT_OK;
}

void solve_pdb_close(solve_pdb_ctx *ctx)
{
    ctx->set = NULL;
}
