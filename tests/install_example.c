/* install_example.c - a program built against an installed libnpuzzle (through pkg-config), as
 * the README shows: solve one 15-puzzle board with linear conflict and check the length against
 * the one given on the command line.
 *   install_example LENGTH TILE... */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <npuzzle.h>

int main(int argc, char **argv)
{
    if (argc != 18) {
        fprintf(stderr, "usage: install_example LENGTH 16 TILES\n");
        return 2;
    }
    np_geom g;
    np_board b;
    if (np_geom_init(&g, 4, 4, NP_GOAL_BLANK_FIRST) != NP_OK)
        return 1;
    char text[128] = "";
    for (int i = 2; i < argc; i++) {
        strcat(text, argv[i]);
        strcat(text, " ");
    }
    char err[200];
    if (np_board_parse(&b, NULL, text, 4, 4, err, sizeof err) != 1) {
        fprintf(stderr, "install_example: %s\n", err);
        return 2;
    }
    np_search_opts opts = {.heuristic = NP_H_LC, .prune = NP_PRUNE_FSM};
    np_result res;
    int rc = np_ida_solve(&res, &b, &g, &opts);
    printf("libnpuzzle %s: status %s, length %d, %llu nodes, moves %s\n", np_version(),
           np_status_name(res.status), res.length, (unsigned long long)res.generated, res.moves);
    return rc == NP_OK && res.status == NP_STATUS_SOLVED && res.length == atoi(argv[1]) ? 0 : 1;
}
