/* mpi_main.c - npuzzle-mpi: `npuzzle solve` under mpirun (solve_mpi.h).
 *   mpirun -np N npuzzle-mpi [solve] [OPTIONS] [FILE...]
 * takes the options, input and output of `npuzzle solve`; rank 0 reads the
 * boards and prints the results, the other ranks serve it. Run without
 * mpirun (one rank) it is `npuzzle solve`. */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "npuzzle.h"
#include "solve_mpi.h"

int main(int argc, char **argv)
{
    int rank = mpi_start(&argc, &argv);
    int rc;
    if (argc > 1 && (!strcmp(argv[1], "version") || !strcmp(argv[1], "--version"))) {
        if (rank == 0)
            printf("npuzzle-mpi %s (libnpuzzle %s)\n", NP_VERSION, np_version());
        rc = EXIT_OK;
    } else {
        /* argv[0] for solve's option parser: "solve", given or not */
        int shift = argc > 1 && !strcmp(argv[1], "solve") ? 1 : 0;
        rc = rank == 0 ? cmd_solve(argc - shift, argv + shift)
                       : cmd_solve_worker(argc - shift, argv + shift);
    }
    if (rank == 0)
        rc = cli_stdout_status("solve", rc);
    mpi_stop();
    return rc;
}
