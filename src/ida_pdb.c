/* ida_pdb.c - IDA* driven by additive pattern databases (not yet built). */
#include "npuzzle/error.h"
#include "search_internal.h"

int np__ida_pdb(np_result *res, const np_board *start, const np_geom *g, const np_search_opts *opts)
{
    (void)res; (void)start; (void)g; (void)opts;
    return NP_EUNSUPPORTED;
}
