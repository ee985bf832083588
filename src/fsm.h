/* fsm.h - duplicate pruning by a finite-state machine over the blank's moves (private).
 *
 * Taylor & Korf (1993): some move strings reach, from any position where
 * they are legal, the state that a shorter string, or one of the same length
 * that comes first in the move order (up, left, right, down), also reaches.
 * A path containing such a string is never the first shortest path to its
 * end, so a search that only needs one shortest path to each node (IDA*
 * looking for an optimal solution) may cut every path at such a string. The
 * machine reads the moves one at a time and refuses the move that completes
 * one of them (Aho-Corasick over the forbidden strings).
 *
 * The strings are found by the program, not typed in: every string of up to
 * `maxlen` moves (no move undoing the one before) is played on an unbounded
 * grid of distinct tiles; two strings are equivalent when they leave the same
 * tiles on the same cells. A string A is forbidden when an equivalent string B
 * is shorter, or as long and first in the move order, and B's cells are among
 * A's (so B is legal wherever A is, on any board).
 *
 * Why the search stays optimal: replace a forbidden substring of a path by
 * its better equivalent; the result is a legal path to the same node, shorter
 * or as long and earlier in the move order. Repeating this ends (the order is
 * well-founded) at a path with no forbidden substring, which the machine lets
 * through; so the first shortest path to every node, the goal included, is
 * never cut. tests/test_ida.c checks it against a full BFS of the 8-puzzle.
 */
#ifndef NPUZZLE_FSM_H
#define NPUZZLE_FSM_H

#include <stdint.h>

/* A machine: state 0 is the start; next[s][d] is the state after the blank
 * moves in direction d from state s, or -1 when that move is refused. */
typedef struct np__fsm {
    int nstates;
    int maxlen;     /* strings of up to this many moves were examined */
    int nforbidden; /* forbidden strings, the four undoing pairs included */
    const int32_t (*next)[4];
} np__fsm;

/* The machine that refuses only the move undoing the previous one (states:
 * the start and one per last move): the search of Korf's papers. */
const np__fsm *np__fsm_parent(void);

/* Build a machine over strings of up to maxlen moves (2..16) into *out
 * (free with np__fsm_free). @return NP_OK, NP_ENOMEM, or NP_EINVAL (maxlen
 * out of range; 16 moves give about 0.6 million states). */
int np__fsm_build(np__fsm *out, int maxlen);
void np__fsm_free(np__fsm *f);

/* The machines over all strings of up to NP__FSM_MAXLEN moves (NP_PRUNE_FSM)
 * and of up to NP__FSM_MAXLEN_OLD (NP_PRUNE_FSM12, the machine of earlier
 * versions, whose counts and checkpoints it keeps): built when the library
 * is built (fsm_gen.c runs np__fsm_build and writes them as tables,
 * fsm_table.c), so that a search does not spend seconds on them. On the
 * Korf-Felner 24-puzzle instances #38 and #40 the longer machine generates
 * 8 % fewer nodes; 15 and 16 moves would cut 1.6 % and 6.5 % more, but
 * their generator needs 1.3 and 4 GB and 20 and 70 s at every build. */
#define NP__FSM_MAXLEN 14
#define NP__FSM_MAXLEN_OLD 12
extern const np__fsm np__fsm_table, np__fsm_table_old;

static inline const np__fsm *np__fsm_duplicates(void)
{
    return &np__fsm_table;
}

#endif
