/* checkpoint.h - `npuzzle solve --checkpoint FILE`: where a run stands, kept in a file that a
 * killed run resumes from.
 *
 * The file is text, rewritten whole under a temporary name and renamed over
 * the old one, so that it is always either the previous state or the new one:
 *
 *   npuzzle-checkpoint VERSION      1, or 2 when a piece line has SPAN
 *   options TEXT                    what changes answers or counts (not -j,
 *                                   but for A* on several threads: jobs=N)
 *   boards N DIGEST                 the boards, in input order (FNV-1a, hex)
 *   tables RxC DIGEST               per board size searched with PDBs
 *   done I STATUS LEN MOVES EXPANDED GENERATED EXTRA SECONDS H0 BOUND
 *   iter I BOUND DEPTH PIECES EXPANDED GENERATED EXTRA SECONDS
 *   piece I INDEX EXPANDED GENERATED NEXT_BOUND LEN MOVES [SPAN]
 *   end DIGEST                      of every byte before this line
 *
 * I is the board's place in the input (from 0); MOVES is '-' when there are
 * none; NEXT_BOUND is -1 for none. `iter` is the IDA* iteration a board was
 * in (np_iteration) and its `piece` lines the pieces it had finished; SPAN,
 * only on a piece carried over from a list cut again (np_piece.span), how
 * many pieces from INDEX on it stands for (earlier versions of npuzzle
 * refuse version 2, those that wrote SPAN as version 1 too; such files are
 * read; a later version is refused by its number). A file
 * without its end line, with anything after it, with a line of another kind,
 * a malformed field or text after a line's last one, or whose digest differs
 * (checked over the whole file before its header is judged), is refused as
 * damaged, and so is one whose finished answers do not replay to the goal
 * (checked by solve); one made for other boards, options or tables, as
 * foreign. An error is no answer: a board that ended with status error (3) is
 * not recorded done. While a run has the file open it holds an advisory lock
 * (flock) on FILE.lock, removed when it closes, so that a second run on the
 * same file is refused. */
#ifndef NPUZZLE_CHECKPOINT_H
#define NPUZZLE_CHECKPOINT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "npuzzle.h"

typedef struct checkpoint checkpoint;

/* Open the checkpoint at `path` for these n boards and this options text:
 * read it when it exists (and check that it was made for them), else start an
 * empty one (nothing is written until checkpoint_save). `every`: seconds
 * between writes while searching. *out is NULL on failure.
 * @return EXIT_OK; EXIT_USAGE for a checkpoint of other boards or options;
 *         EXIT_PDB for one that cannot be read, is damaged or is in use by
 *         another run (reported). */
int checkpoint_open(checkpoint **out, const char *path, const char *options, const np_board *boards,
                    size_t n, double every);

void checkpoint_close(checkpoint *c);

/* The tables that boards of size RxC are searched with: recorded, or checked
 * against the record. @return EXIT_OK or EXIT_USAGE (other tables; reported). */
int checkpoint_tables(checkpoint *c, int rows, int cols, uint64_t digest);

/* Whether the file is only read (a finished checkpoint where no lock can be
 * made): checkpoint_save writes nothing then. */
bool checkpoint_read_only(const checkpoint *c);

/* How many boards the file held finished or in progress when it was opened. */
size_t checkpoint_resumed(const checkpoint *c);

/* The result of board i when the checkpoint holds it finished, else NULL. */
const np_result *checkpoint_done(const checkpoint *c, size_t i);

/* Before board i is searched: set its journal, and the state to resume from
 * when the checkpoint holds one (opts->timeout then less the board's seconds
 * in earlier runs). */
void checkpoint_prepare(checkpoint *c, size_t i, np_search_opts *opts);

/* The nodes board i's search had generated in earlier runs (the iterations
 * before its current one and that one's finished pieces); 0 for a board not
 * in progress. */
uint64_t checkpoint_resumed_nodes(checkpoint *c, size_t i);

/* Board i finished with result r (its seconds are made those of all runs). */
void checkpoint_finish(checkpoint *c, size_t i, np_result *r);

/* Also call fn(ctx, next) whenever a board's iteration ends, piece(ctx, it,
 * done, nodes, p) whenever one of its pieces finishes (`done` of the
 * iteration's it->npieces finished, counting those of earlier runs, `nodes`
 * generated in them; p the piece), and running(ctx, it, done, nodes,
 * generated) whenever the search tells its running count (np_journal.running,
 * about every running_every seconds: `generated` so far, earlier runs' too):
 * progress reports, from the search's threads, under the checkpoint's lock.
 * Any may be NULL. */
void checkpoint_observe(checkpoint *c, void (*fn)(void *ctx, const np_iteration *next),
                        void (*piece)(void *ctx, const np_iteration *it, size_t done,
                                      uint64_t nodes, const np_piece *p),
                        void (*running)(void *ctx, const np_iteration *it, size_t done,
                                        uint64_t nodes, uint64_t generated),
                        double running_every, void *ctx);

/* Write the file now. @return EXIT_OK or EXIT_PDB (reported). */
int checkpoint_save(checkpoint *c);

/* EXIT_PDB when the state could not be kept in memory while searching
 * (reported; the file then lacks pieces), else EXIT_OK. A write that failed
 * while searching is tried again, and its failure is not kept here: the
 * final checkpoint_save tells whether the file holds the run. */
int checkpoint_error(const checkpoint *c);

#endif
