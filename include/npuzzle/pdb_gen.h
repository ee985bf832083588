/* pdb_gen.h - build an additive pattern database by parallel backward BFS.
 *
 * The BFS runs from the goal over (placement of the pattern tiles, blank
 * region) states: the blank moves freely (cost 0) through the cells the
 * pattern does not occupy, so the blank's position only matters up to the
 * connected region of free cells it stands in; moving a pattern tile into an
 * adjacent cell of the blank's region costs 1. The value of a placement is the
 * minimum over its blank regions, i.e. the BFS depth at which the placement is
 * first reached. Values of disjoint patterns may be added admissibly.
 *
 * Values are indexed by np_rank() (rank.h) of the labels (np_geom.label,
 * board.h) of the cells of the pattern tiles, in the order the caller lists
 * the tiles: the index every PDB lookup computes.
 */
#ifndef NPUZZLE_PDB_GEN_H
#define NPUZZLE_PDB_GEN_H

#include <stdint.h>

#include "npuzzle/board.h"
#include "npuzzle/rank.h"

#ifdef __cplusplus
extern "C" {
#endif

/*! What the generator reports after each BFS level. */
typedef struct np_pdb_gen_progress {
    int depth;                   /*!< the level just completed (0 = the goal) */
    uint64_t states_at_depth;    /*!< (placement, region) states first reached at `depth` */
    uint64_t states_reached;     /*!< states reached at depths 0..depth */
    uint64_t states_total;       /*!< all (placement, region) states */
    uint64_t placements_reached; /*!< placements whose value is known */
    uint64_t placements_total;   /*!< n!/(n-k)!, the table's entries */
    double elapsed;              /*!< seconds since the generation began */
} np_pdb_gen_progress;

/*! Progress callback: called from the calling thread between levels, never
 *  concurrently. `p` is valid during the call only. */
typedef void (*np_pdb_gen_progress_fn)(void *ctx, const np_pdb_gen_progress *p);

/*! Generation options. A zeroed struct (or NULL) means: OpenMP's default thread
 *  count, only MemAvailable limits memory, no progress reports. */
typedef struct np_pdb_gen_opts {
    int threads;                     /*!< OpenMP threads; <= 0: omp_get_max_threads() */
    uint64_t max_memory;             /*!< bytes allowed for table + work; 0 = only MemAvailable */
    np_pdb_gen_progress_fn progress; /*!< may be NULL */
    void *progress_ctx;              /*!< passed to progress */
    const volatile int *cancel;      /*!< if not NULL, *cancel != 0 stops the build: NP_EINTR */
    int goal_region;                 /*!< 0: the goal has the blank in its home cell's region (the
                      *   solver's table); c + 1: in cell c's region (c free with the
                      *   pattern at home; np_pdb_goal_regions lists the ones the
                      *   dual lookups use) */
    /*! When not NULL, the zero-aware part of the table (Clausecker & Reinefeld's
     *  zero-aware PDBs) is built too and *region_gain receives it on success:
     *  a malloc'd array (the caller's, free()) of out_entries bytes in the
     *  order of the values, bit r (r < NP_PDB_GAIN_REGIONS) of entry i set when,
     *  with the pattern's tiles placed as in entry i and the blank in region
     *  r of the free cells (their connected regions, numbered in the order of
     *  their least cell label), the pattern needs more moves than value[i]:
     *  at least 2 more (the parities agree). Set to NULL first. Costs memory
     *  of the table's size more (counted in the memory check). */
    uint8_t **region_gain;
} np_pdb_gen_opts;

/*! Regions a zero-aware table tells apart (np_pdb_gen_opts.region_gain): a
 *  blank in a later region counts as the least value's. */
#define NP_PDB_GAIN_REGIONS 4

/*! Sizes of one generation, known before anything large is allocated. */
typedef struct np_pdb_gen_estimate {
    uint64_t entries;     /*!< placements = n!/(n-k)! */
    uint64_t states;      /*!< (placement, blank region) classes */
    uint64_t table_bytes; /*!< the 8-bit output table */
    uint64_t work_bytes;  /*!< working memory beside the table: the larger of the BFS's
                           *   (2 bits per state + cell-set tables) and the final
                           *   reordering's (a second table) */
    uint64_t available;   /*!< MemAvailable when estimated (0 if unknown) */
    uint64_t cell_sets;   /*!< C(n,k) occupied-cell sets */
    uint64_t regions;     /*!< (cell set, blank region) pairs: states = regions * k! */
} np_pdb_gen_estimate;

/*! Compute the sizes of generating the PDB of tiles[0..ntiles-1] on `g`.
 *  Counting the regions costs O(C(n,k) * n) time and no large allocation.
 *  `est` is the caller's: zeroed first (when not NULL), so all zero on
 *  failure; states and work_bytes are UINT64_MAX when they overflow.
 *  @return NP_OK; NP_EINVAL for a NULL est, g or tiles, a bad pattern (a tile
 *  outside 1..cells-1, a repeated tile, ntiles < 1 or ntiles > cells - 3) or a
 *  labelled geometry (board.h); NP_ETOOBIG when the table cannot even be
 *  indexed (n!/(n-k)! >= 2^63 or k > NP_RANK_MAX_K). Thread-safe. */
int np_pdb_gen_estimate_for(np_pdb_gen_estimate *est, const np_geom *g, const uint8_t *tiles,
                            int ntiles);

/*! Build the additive PDB of pattern tiles[0..ntiles-1] (tiles 1..cells-1,
 *  distinct, no blank, at most cells - 3 of them: with two interchangeable
 *  non-pattern tiles besides the blank every placement is reachable, with one
 *  the permutation parity would leave holes).
 *
 *  On success *out_values is a malloc'd array of *out_entries (= n!/(n-k)!)
 *  bytes, owned by the caller (free()); value[np_rank(labels of the cells of the
 *  tiles, in the given order)] = the fewest moves of pattern tiles that bring them home, the
 *  blank moving freely through non-pattern cells (minimum over the blank's
 *  regions). Values are at most 254.
 *
 *  Memory is checked before anything large is allocated: table + work must fit
 *  in opts->max_memory (when not 0) and in MemAvailable (when readable).
 *  The output is identical for any thread count.
 *
 *  `g`, `tiles` and `opts` (NULL: defaults) are borrowed for the call. When
 *  out_values and out_entries are not NULL, *out_values and *out_entries are
 *  set to NULL and 0 first, so on failure there is nothing to free.
 *
 *  @return NP_OK; NP_EINVAL for a bad pattern, a NULL argument or a labelled
 *  geometry (board.h: `g` numbers cells row-major); NP_ETOOBIG when the table
 *  cannot be indexed or table + work does not fit (checked before the large
 *  allocations); NP_ENOMEM when an allocation fails; NP_EUNSUPPORTED when a
 *  value would exceed 254 or a placement is never reached (which would be a
 *  bug); NP_EINTR when opts->cancel stopped it.
 *  Thread-safe (it starts its own OpenMP team). */
int np_pdb_generate(uint8_t **out_values, uint64_t *out_entries, const np_geom *g,
                    const uint8_t *tiles, int ntiles, const np_pdb_gen_opts *opts);

/*! The goal regions whose tables the dual lookups of a pattern use beside its
 *  standard table (np_h_pdb_dual). With the pattern's tiles at home the free
 *  cells split into connected regions; for each one but the blank's home
 *  cell's, its least cell c is written as c + 1 (np_pdb_gen_opts.goal_region)
 *  to goal_regions[], in increasing order (room for NP_MAX_CELLS). When
 *  cell_region is not NULL, cell_region[c] (g->cells entries) receives the
 *  region of cell c: 0 for the blank home's, k + 1 for the one goal_regions[k]
 *  names, -1 for a home cell of the pattern. `g` is row-major, the pattern
 *  valid. @return how many (usually 0). Cannot fail. */
int np_pdb_goal_regions(const np_geom *g, const uint8_t *tiles, int ntiles, int *goal_regions,
                        int8_t *cell_region);

/*! The most goal regions of one pattern that get tables for the dual lookups
 *  (np_pdb_dual_tables); with the blank in a further one they count
 *  Manhattan distances. */
#define NP_PDB_DUAL_REGIONS 4

/*! One table: a pattern and the region of its goal's blank. */
typedef struct np_pdb_table_spec {
    uint8_t tiles[NP_RANK_MAX_K];
    int ntiles;
    int goal_region; /*!< as np_pdb_gen_opts.goal_region */
} np_pdb_table_spec;

/*! The tables the dual lookups of pattern tiles[0..ntiles-1] use beside its
 *  standard one (np_h_pdb_dual; `npuzzle gen --dual` builds them), written to
 *  out[] (room for 2 * NP_MAX_CELLS): first the pattern with the goal's blank
 *  in each other region (np_pdb_goal_regions' order, the first
 *  NP_PDB_DUAL_REGIONS of them), then, when the pattern
 *  has two tiles or more, for each of its tiles j in order, the pattern
 *  without tile j with the goal's blank in the region of j's home cell (the
 *  table of the pattern whose tile plays the blank on the dual).
 *  @return how many. Cannot fail. */
int np_pdb_dual_tables(const np_geom *g, const uint8_t *tiles, int ntiles, np_pdb_table_spec *out);

#ifdef __cplusplus
}
#endif

#endif
