/* solve_mpi.h - npuzzle-mpi: `npuzzle solve` over Open MPI.
 *
 * Rank 0 reads the boards, runs `npuzzle solve` as usual and hands the work
 * out; the other ranks (workers) ask for nothing and serve: for each group of
 * boards of one size they open the same tables as rank 0 (their own copy: a
 * shared file system or each node's cache), and then solve what they are sent.
 * A batch goes board by board (a worker takes as many as it has threads); a
 * single board goes piece by piece (np_piece_runner): the answer and counts
 * are the serial search's, as with threads. Rank 0 searches too, with its own
 * threads, while it hands pieces and boards out. Messages are the structs of
 * solve_mpi.c sent as bytes: every rank runs the same build on the same kind
 * of machine.
 *
 * Tables: at each group the workers send each table's checksum and path;
 * a rank whose tables differ from rank 0's is refused by rank and file, and
 * the run ends with exit 3. A rank that dies ends the run (Open MPI ends the
 * job; mpirun says which rank); the checkpoint, written by rank 0 only, stays
 * whole and the same command resumes.
 *
 * A checkpoint (written by rank 0 only) works as in one process: in a batch,
 * each board sent out carries its resumed state, and the worker that solves it
 * sends back its finished pieces and iterations as they come (TAG_JOURNAL),
 * which rank 0 writes as if it searched the board itself; so a run killed at
 * any moment loses only the pieces in flight. For one board split into
 * pieces, rank 0 tells the workers to stop (TAG_STOP) the pieces after one
 * that holds a solution, and all of them when the board's --timeout,
 * --max-nodes or an interrupt stops it; the pieces handed out carry what is
 * left of those limits (rank 0 counts nodes as pieces come back, so the
 * pieces in flight may together pass --max-nodes). A board of a batch counts
 * its checkpointed time from when it is handed out, which includes a wait in
 * a worker's second message. The workers need MPI_THREAD_MULTIPLE: their search
 * threads send the journal, and a listening thread takes the stops. */
#ifndef NPUZZLE_SOLVE_MPI_H
#define NPUZZLE_SOLVE_MPI_H

#include <stdbool.h>
#include <stddef.h>

#include "npuzzle.h"

/* MPI_Init (threads: funnelled); *argc and *argv as MPI leaves them.
 * @return this rank. */
int mpi_start(int *argc, char ***argv);

/* True under mpirun with more than one rank. */
bool mpi_active(void);

/* Rank 0: tell the workers to stop; every rank: MPI_Finalize. */
void mpi_stop(void);

/* What a worker does for a group: open the tables and options of boards of
 * rows x cols as rank 0 does (the same command line), and close them again. */
typedef struct mpi_worker_ops {
    int (*open)(void *ctx, int rows, int cols, np_geom *g, np_search_opts *o, char *dir,
                size_t dirlen); /* @return an exit code; dir: where the tables are */
    void (*close)(void *ctx);
    void *ctx;
    int threads;                /* this rank's threads (-j) */
    np_algorithm algorithm;     /* the boards' search (--algorithm), as rank 0's */
    const volatile int *cancel; /* set by SIGINT/SIGTERM */
} mpi_worker_ops;

/* A worker rank's `npuzzle solve`: read the same command line as rank 0 (which
 * reports what is wrong with it), then serve. @return an exit code. */
int cmd_solve_worker(int argc, char **argv);

/* A worker's life: serve rank 0 until it says stop. @return an exit code. */
int mpi_serve(const mpi_worker_ops *ops);

/* Rank 0: solve the m boards of one size over every rank, as np_batch_solve
 * does (results and progress callbacks, threads: rank 0's; prepare only for
 * a single board), after
 * checking that every worker opened the same tables (`dir`: rank 0's table
 * directory, for the messages). @return NP_OK, an np_error, or
 * NP_EMISMATCH when a worker's tables differ or it could not open them
 * (reported, naming the rank and the file). `all`: the input's boards of this
 * size, finished ones too; A* boards side by side on a rank share its memory
 * (opts->max_memory, else its own MemAvailable) by its threads, up to `all`
 * (cli_astar_share). */
int mpi_solve_batch(np_result *results, const np_board *boards, size_t m, size_t all,
                    const np_geom *g, const np_search_opts *opts, const np_batch_opts *bopts,
                    const char *dir);

#endif
