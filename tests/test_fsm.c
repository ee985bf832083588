/* test_fsm.c - the duplicate-pruning machine (src/fsm.h), checked against its definition with
 * this file's own move code: every move string the machine refuses has an equivalent string (the
 * same tiles on the same cells from any start) that is shorter, or as long and first in the move
 * order, and that visits only cells the refused one visits (so it is legal wherever the refused
 * one is). The solver's lengths with the machine on are checked against BFS in test_ida.c. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "fsm.h"
#include "npuzzle/error.h"

/* ---- this file's own move strings ---------------------------------------------- */

#define L_TEST 10             /* strings of up to this many moves are checked */
#define SIDE (2 * L_TEST + 1) /* a grid the blank cannot leave, started in the middle */

/* the blank's moves in the library's order: up, left, right, down */
static const int step_r[4] = {-1, 0, 0, 1}, step_c[4] = {0, -1, 1, 0};

typedef struct played {
    uint16_t key[2 + 2 * (L_TEST + 1)]; /* blank cell, count, then (cell, tile) of changed cells */
    uint8_t moves[L_TEST];
    uint8_t len;
} played;

/* Play the moves on the grid; the key lists every cell whose tile changed. */
static void play(played *p)
{
    static uint16_t tile[SIDE * SIDE];
    for (int c = 0; c < SIDE * SIDE; c++)
        tile[c] = (uint16_t)c;
    int blank = L_TEST * SIDE + L_TEST;
    int touched[L_TEST + 1], nt = 0;
    touched[nt++] = blank;
    for (int i = 0; i < p->len; i++) {
        int to = blank + step_r[p->moves[i]] * SIDE + step_c[p->moves[i]];
        tile[blank] = tile[to];
        tile[to] = (uint16_t)(L_TEST * SIDE + L_TEST); /* the blank's own number */
        blank = to;
        int j;
        for (j = 0; j < nt && touched[j] != to; j++)
            ;
        if (j == nt)
            touched[nt++] = to;
    }
    /* sort the touched cells; keep those whose tile changed */
    for (int i = 1; i < nt; i++)
        for (int j = i; j > 0 && touched[j - 1] > touched[j]; j--) {
            int x = touched[j];
            touched[j] = touched[j - 1];
            touched[j - 1] = x;
        }
    memset(p->key, 0, sizeof p->key);
    p->key[0] = (uint16_t)blank;
    int n = 0;
    for (int i = 0; i < nt; i++)
        if (tile[touched[i]] != touched[i]) {
            p->key[2 + 2 * n] = (uint16_t)touched[i];
            p->key[3 + 2 * n] = tile[touched[i]];
            n++;
        }
    p->key[1] = (uint16_t)n;
}

/* The cells the blank visits, as a bit set over the grid. */
static void cells(const played *p, uint64_t *set)
{
    memset(set, 0, (SIDE * SIDE + 63) / 64 * sizeof *set);
    int blank = L_TEST * SIDE + L_TEST;
    set[blank / 64] |= 1ULL << (blank % 64);
    for (int i = 0; i < p->len; i++) {
        blank += step_r[p->moves[i]] * SIDE + step_c[p->moves[i]];
        set[blank / 64] |= 1ULL << (blank % 64);
    }
}

/* Order: by key, then shorter first, then first in the move order. */
static int played_cmp(const void *pa, const void *pb)
{
    const played *a = pa, *b = pb;
    int k = memcmp(a->key, b->key, sizeof a->key);
    if (k)
        return k;
    if (a->len != b->len)
        return a->len < b->len ? -1 : 1;
    return memcmp(a->moves, b->moves, a->len);
}

/* Every string of 1..L_TEST moves with no move undoing the one before. */
static played *all_strings(size_t *n)
{
    size_t cap = 0, count = 0;
    for (int len = 1, k = 4; len <= L_TEST; len++, k *= 3)
        cap += (size_t)k;
    played *v = malloc(cap * sizeof *v);
    assert_non_null(v);
    played cur = {.len = 0};
    /* iterative depth-first enumeration */
    int next[L_TEST + 1];
    int depth = 0;
    next[0] = 0;
    while (depth >= 0) {
        if (depth == L_TEST || next[depth] == 4) {
            depth--;
            if (depth >= 0)
                next[depth]++;
            continue;
        }
        int d = next[depth];
        if (depth > 0 && d == 3 - cur.moves[depth - 1]) {
            next[depth]++;
            continue;
        }
        cur.moves[depth] = (uint8_t)d;
        cur.len = (uint8_t)(depth + 1);
        played p = cur;
        play(&p);
        v[count++] = p;
        depth++;
        next[depth] = 0;
    }
    assert_int_equal(count, cap);
    *n = count;
    return v;
}

/* Does the machine refuse the string's last move (having let the ones before it through)? */
static bool refused_last(const np__fsm *f, const played *p)
{
    int s = 0;
    for (int i = 0; i < p->len; i++) {
        int t = f->next[s][p->moves[i]];
        if (t < 0)
            return i == p->len - 1;
        s = t;
    }
    return false;
}

/* ---- tests ----------------------------------------------------------------------- */

/* The tables built into the library are the generator's output. */
static void test_table_is_generated(void **state)
{
    (void)state;
    np__fsm f;
    const struct {
        const np__fsm *table;
        int maxlen;
    } built[] = {{np__fsm_duplicates(), NP__FSM_MAXLEN}, {&np__fsm_table_old, NP__FSM_MAXLEN_OLD}};
    for (size_t i = 0; i < sizeof built / sizeof built[0]; i++) {
        const np__fsm *t = built[i].table;
        assert_int_equal(np__fsm_build(&f, built[i].maxlen), NP_OK);
        assert_int_equal(t->maxlen, built[i].maxlen);
        assert_int_equal(t->nstates, f.nstates);
        assert_int_equal(t->nforbidden, f.nforbidden);
        assert_memory_equal(t->next, f.next, (size_t)f.nstates * sizeof f.next[0]);
        np__fsm_free(&f);
    }
    assert_int_equal(np__fsm_build(&f, 1), NP_EINVAL);
    assert_int_equal(np__fsm_build(&f, 17), NP_EINVAL);
}

/* Up to 6 moves, the only duplicates are the undoing pairs and the blank's
 * loops around a 2x2 block: six moves one way reach what six moves the other
 * way reach (three loops are the identity). The machine refuses the one of
 * each pair that comes later in the move order: 4 + 4 strings. */
static void test_six_moves(void **state)
{
    (void)state;
    np__fsm f;
    assert_int_equal(np__fsm_build(&f, 6), NP_OK);
    assert_int_equal(f.nforbidden, 8);
    size_t n;
    played *v = all_strings(&n);
    int refused6 = 0;
    for (size_t i = 0; i < n; i++) {
        if (v[i].len > 6)
            continue;
        if (refused_last(&f, &v[i])) {
            /* a loop: the first two moves turn, and so does every later pair */
            assert_int_equal(v[i].len, 6);
            for (int k = 2; k < 6; k++)
                assert_int_equal(v[i].moves[k], v[i].moves[k - 2] ^ 3);
            refused6++;
        }
    }
    assert_int_equal(refused6, 4);
    /* the parent machine refuses exactly the undoing moves */
    const np__fsm *p = np__fsm_parent();
    for (int a = 0; a < 4; a++)
        for (int b = 0; b < 4; b++)
            assert_true((p->next[p->next[0][a]][b] < 0) == (b == 3 - a));
    free(v);
    np__fsm_free(&f);
}

/* Every string of up to L_TEST moves that the library's machine refuses at
 * its last move has a better equivalent that visits only its cells. */
static void test_refused_strings_have_better_equivalents(void **state)
{
    (void)state;
    const np__fsm *f = np__fsm_duplicates();
    size_t n;
    played *v = all_strings(&n);
    qsort(v, n, sizeof *v, played_cmp);
    uint64_t ca[(SIDE * SIDE + 63) / 64], cb[(SIDE * SIDE + 63) / 64];
    size_t refused = 0;
    for (size_t i = 0; i < n;) {
        size_t j = i + 1;
        while (j < n && memcmp(v[j].key, v[i].key, sizeof v[i].key) == 0)
            j++;
        for (size_t a = i; a < j; a++) {
            if (!refused_last(f, &v[a]))
                continue;
            refused++;
            cells(&v[a], ca);
            bool found = false;
            for (size_t b = i; b < a && !found; b++) {
                cells(&v[b], cb);
                found = true;
                for (size_t w = 0; w < sizeof ca / sizeof ca[0]; w++)
                    found &= (cb[w] & ~ca[w]) == 0;
            }
            if (!found) {
                char s[L_TEST + 1];
                for (int k = 0; k < v[a].len; k++)
                    s[k] = "ULRD"[v[a].moves[k]];
                s[v[a].len] = 0;
                fail_msg("the machine refuses %s, which has no better equivalent within its cells",
                         s);
            }
        }
        i = j;
    }
    print_message("%zu strings of up to %d moves, %zu refused at their last move, each with a "
                  "better equivalent\n",
                  n, L_TEST, refused);
    assert_true(refused > 1000);
    free(v);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_table_is_generated),
        cmocka_unit_test(test_six_moves),
        cmocka_unit_test(test_refused_strings_have_better_equivalents),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
