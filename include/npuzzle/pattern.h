/* pattern.h - tile sets (patterns), partitions of a board into patterns, and the catalogue of
 * named partitions.
 *
 * A pattern is a set of tiles whose placements one pattern database indexes.
 * Its tiles are kept in ascending order: that order is the order in which
 * np_rank() sees the tiles' cells, so "3,1,2" and "1,2,3" name the same table.
 *
 * A partition is a list of disjoint patterns; when it covers every tile of the
 * board, the sum of its PDB lookups is an admissible estimate (the solver
 * needs that). Partitions are written "1,2,3/4,5,6": tiles separated by
 * commas, patterns by slashes.
 *
 * Named partitions ("15:7-8", "24:6-6-6-6", ...) come from a small catalogue
 * kept as text in data/partitions.txt and built into the library; the library
 * reads no file to find it.
 */
#ifndef NPUZZLE_PATTERN_H
#define NPUZZLE_PATTERN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "npuzzle/board.h"

#ifdef __cplusplus
extern "C" {
#endif

#define NP_PATTERN_MAX_TILES 16  /*!< tiles in one pattern (the ranker's limit) */
#define NP_PARTITION_MAX 16      /*!< patterns in one partition */
#define NP_PARTITION_NAME_MAX 32 /*!< bytes of a partition name, NUL included */

/*! One pattern: a transparent value type. tiles[0..ntiles-1] ascending, each in 1..cells-1. */
typedef struct np_pattern {
    int ntiles;
    uint8_t tiles[NP_PATTERN_MAX_TILES];
} np_pattern;

/*! A partition of (some of) a board's tiles into disjoint patterns: a value type. */
typedef struct np_partition {
    char name[NP_PARTITION_NAME_MAX]; /*!< catalogue name, or "custom" */
    int rows, cols;                   /*!< board the tiles refer to */
    int npatterns;
    np_pattern patterns[NP_PARTITION_MAX];
} np_partition;

/*! Parse a partition "1,2,3/4,5,6" for a rows x cols board. Spaces around
 *  numbers are allowed. Tiles within a pattern are sorted ascending; the order
 *  of the patterns is kept. The name is set to "custom". `text` NULL reads as
 *  the empty string.
 *  @param cover  when true, every tile 1..cells-1 must appear (a partition the
 *                solver sums); when false, a subset is allowed (gen --pattern).
 *  @param err    receives a one-line message saying what is wrong.
 *  @return NP_OK (`out` written only then), NP_EPARSE for malformed text
 *          (non-integer, empty pattern, too many tiles or patterns), or
 *          NP_EINVAL for a tile that is the blank, not on the board, given
 *          twice, or (with cover) missing, and for an unsupported board size.
 *          Thread-safe. */
int np_partition_parse(np_partition *out, const char *text, int rows, int cols, bool cover,
                       char *err, size_t errlen);

/*! Check that `p` is a valid partition (a supported board size, 1 to
 *  NP_PARTITION_MAX patterns of 1 to NP_PATTERN_MAX_TILES tiles, tiles in
 *  range, no blank, disjoint, and with `cover` every tile present). Tiles need
 *  not be sorted. err may be NULL.
 *  @return NP_OK, or NP_EINVAL with a message in err. */
int np_partition_check(const np_partition *p, bool cover, char *err, size_t errlen);

/*! @return true when `p` passes np_partition_check() with cover (so its
 *  patterns hold every tile 1..cells-1). Cannot fail (false is the answer). */
bool np_partition_covers(const np_partition *p);

/*! Write `p`'s patterns as "1,2,3/4,5,6" into the caller's buf (NUL-terminated,
 *  truncated to buflen; buf may be NULL to measure). Cannot fail.
 *  @return the length it needed, NUL excluded (like snprintf). */
int np_partition_format(char *buf, size_t buflen, const np_partition *p);

/*! Write one pattern as "1,2,3" (sep ',') or "1.2.3" (sep '.') into the
 *  caller's buf (NUL-terminated, truncated to buflen; buf may be NULL to
 *  measure). Cannot fail.
 *  @return the length it needed, NUL excluded (like snprintf). */
int np_pattern_format(char *buf, size_t buflen, const np_pattern *pat, char sep);

/*! Look up a named partition ("15:7-8") in the built-in catalogue (exact,
 *  case-sensitive; `name` NULL finds nothing). Copies the entry into `out`.
 *  @return NP_OK (`out` written only then), NP_ENOTFOUND with a message
 *          listing the known names, or NP_EFORMAT when the built-in entry
 *          itself is malformed (a build bug). */
int np_catalog_find(np_partition *out, const char *name, char *err, size_t errlen);

/*! The index-th catalogue entry (0, 1, ...), for listing the names; copied
 *  into `out`.
 *  @return NP_OK (`out` written only then), NP_ENOTFOUND for a negative index
 *          or past the last entry, or NP_EFORMAT for a malformed built-in
 *          entry (a build bug). */
int np_catalog_get(np_partition *out, int index);

/*! The default partition of a board size, as marked in the catalogue:
 *  8:4-4 for 3x3, 15:7-8 for 4x4, 24:6-6-6-6 for 5x5; copied into `out`.
 *  @return NP_OK (`out` written only then), or NP_ENOTFOUND for a size
 *          without one. */
int np_partition_default(np_partition *out, int rows, int cols);

/*! Resolve what a user typed after --partition or --pattern: a catalogue name
 *  when `spec` names one (it must then be for rows x cols: NP_EMISMATCH
 *  otherwise), else a custom partition parsed as by np_partition_parse().
 *  A spec with ':', or with none of ',', '/' and the digits, is taken for a
 *  name (so "" and "abc" are names that no entry has: NP_ENOTFOUND).
 *  A catalogue entry always covers its board, whatever `cover` says.
 *  @return NP_OK (`out` written only then); NP_EINVAL for `spec` NULL; for a
 *          name: NP_ENOTFOUND, NP_EFORMAT (as np_catalog_find) or
 *          NP_EMISMATCH (another board size); for a custom partition:
 *          NP_EPARSE or NP_EINVAL (as np_partition_parse). Message in err. */
int np_partition_resolve(np_partition *out, const char *spec, int rows, int cols, bool cover,
                         char *err, size_t errlen);

/*! The catalogue's text as built into the library (static, NUL-terminated;
 *  never freed). Cannot fail. */
const char *np_catalog_text(void);

#ifdef __cplusplus
}
#endif

#endif
