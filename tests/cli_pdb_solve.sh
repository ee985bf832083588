#!/usr/bin/env bash
# cli_pdb_solve.sh - end-to-end tests of `npuzzle solve` with pattern databases: lengths, missing and
# corrupt tables, --gen, --no-reflect, the fallback without tables, one board on two threads.
# usage: cli_pdb_solve.sh NPUZZLE_BINARY
set -u
NP=${1:?usage: cli_pdb_solve.sh NPUZZLE_BINARY}
. "$(dirname "$0")/cli_lib.sh"
cli_start_quiet

# ok, bad, has PATTERN FILE DESCRIPTION (fixed string): cli_lib.sh
# run WANT_RC DESCRIPTION CMD...: run CMD with stdout in $T/out, stderr in $T/err
run() { expect_rc "$@"; }
# lengths: the length column of a csv output ($T/out), one line, space-separated
lengths() { awk -F, 'NR > 1 { printf "%s ", $5 }' "$T/out"; }
# same A B DESCRIPTION
same() {
    if [ "$1" = "$2" ]; then ok; else bad "$3: '$1' != '$2'"; fi
}

A="$T/a"
F1="3x3-bf-1.2.3.4.pdb"
F2="3x3-bf-5.6.7.8.pdb"
H8="$DATA/hardest8.txt"
BOARD8="8 0 6 5 4 7 2 3 1"

# 8-puzzle boards from random walks (fixed seed) of up to 60 steps, plus the two 31-move ones.
RANDOM=20240611
{
    cat "$H8"
    for _ in $(seq 1 30); do
        t=(0 1 2 3 4 5 6 7 8)
        b=0
        for _ in $(seq 1 $((RANDOM % 61))); do
            r=$((b / 3)) c=$((b % 3))
            case $((RANDOM % 4)) in
                0) [ $r -gt 0 ] && n=$((b - 3)) || continue ;;
                1) [ $r -lt 2 ] && n=$((b + 3)) || continue ;;
                2) [ $c -gt 0 ] && n=$((b - 1)) || continue ;;
                3) [ $c -lt 2 ] && n=$((b + 1)) || continue ;;
            esac
            t[b]=${t[n]}
            t[n]=0
            b=$n
        done
        echo "${t[*]}"
    done
} >"$T/boards8.txt"

# ---- build the tables, solve the hardest boards ------------------------------
run 0 "gen 8:4-4" "$NP" gen --partition 8:4-4 --pdb-dir "$A" --quiet
[ -f "$A/$F1" ] && [ -f "$A/$F2" ] && ok || bad "gen did not write $F1 and $F2: $(ls -A "$A")"

run 0 "solve -H pdb --check hardest8" "$NP" solve -H pdb --pdb-dir "$A" --check -f csv -q "$H8"
same "$(lengths)" "31 31 " "hardest8 lengths"
run 0 "solve -H pdb --check hardest8 (text)" "$NP" solve -H pdb --pdb-dir "$A" --check "$H8"
has "31" "$T/out" "text output shows the length"

# the directory from the environment
NPUZZLE_PDB_DIR="$A" run 0 "NPUZZLE_PDB_DIR" "$NP" solve -H pdb --check -f csv -q "$H8"
same "$(lengths)" "31 31 " "lengths with NPUZZLE_PDB_DIR"

# ---- every search with the tables finds the true distance ------------------------
# The truth: a breadth-first search of all 181,440 8-puzzle boards from the goal (bfs8, python3),
# no code of npuzzle's; lengths in the order of the boards, space-separated, as lengths() gives them.
want=$(bfs8 "$T/boards8.txt" | tr '\n' ' ')
[ "$(echo "$want" | wc -w)" -eq 32 ] && ok || bad "expected 32 boards' BFS distances, got '$want'"
run 0 "solve -H md" "$NP" solve -H md -f csv -q "$T/boards8.txt"
same "$(lengths)" "$want" "md lengths vs BFS distances"
run 0 "solve -H pdb" "$NP" solve -H pdb --pdb-dir "$A" -f csv -q "$T/boards8.txt"
same "$(lengths)" "$want" "pdb lengths vs BFS distances"
run 0 "solve -H pdb --no-reflect" "$NP" solve -H pdb --no-reflect --pdb-dir "$A" -f csv -q "$T/boards8.txt"
same "$(lengths)" "$want" "--no-reflect lengths vs BFS distances"
run 0 "solve -H pdb -j 2" "$NP" solve -H pdb -j 2 --pdb-dir "$A" -f csv -q "$T/boards8.txt"
same "$(lengths)" "$want" "-j 2 lengths vs BFS distances"
# --pdb-private: the tables copied into private memory give the same answers and counts
run 0 "solve -H pdb (shared mapping), counts" "$NP" solve -H pdb --pdb-dir "$A" -f csv -q "$T/boards8.txt"
nodes_shared=$(awk -F, 'NR > 1 { print $1, $5, $8 }' "$T/out")
run 0 "solve -H pdb --pdb-private" "$NP" solve -H pdb --pdb-private --pdb-dir "$A" -f csv -q "$T/boards8.txt"
same "$(lengths)" "$want" "--pdb-private lengths vs BFS distances"
same "$(awk -F, 'NR > 1 { print $1, $5, $8 }' "$T/out")" "$nodes_shared" "--pdb-private: the counts of the shared mapping"
run 2 "--dual -H md" "$NP" solve --dual -H md -q "$H8"
has "does not go with -H md or lc" "$T/err" "--dual refuses another heuristic"
run 2 "--dual --weight 2" "$NP" solve --dual --weight 2 --pdb-dir "$A" -q "$H8"
has "does not go with --weight" "$T/err" "--dual refuses weighted search"
run 3 "--dual without tables" "$NP" solve --dual --pdb-dir "$T/none" -q "$H8"
has "3x3-bf-1.2.3.4.pdb" "$T/err" "--dual insists on the tables and names the missing one"
run 0 "solve -H pdb --dual, no dual tables" "$NP" solve -H pdb --dual --pdb-dir "$A" -f csv "$T/boards8.txt"
same "$(lengths)" "$want" "--dual lengths vs BFS distances (Manhattan distances for the missing tables)"
has "3x3-bf-1.2.3.4-r5.pdb" "$T/err" "the note names the first missing dual table"
has "gen --partition 8:4-4 --dual --pdb-dir" "$T/err" "the note says how to build them"
# 8:4-4 with the dual tables: 1,2,3,4 walls cell 0 in (one region table), and
# each pattern without each tile (8 tables)
run 0 "gen 8:4-4 --dual" "$NP" gen --partition 8:4-4 --dual --pdb-dir "$A" --quiet
[ "$(ls "$A" | grep -c '\.pdb$')" -eq 11 ] && ok || bad "gen --dual: $(ls "$A" | tr '\n' ' ')"
[ -f "$A/3x3-bf-1.2.3.4-r5.pdb" ] && [ -f "$A/3x3-bf-1.2.4.pdb" ] && ok || bad "gen --dual file names"
run 0 "npuzzle info, a region table" "$NP" info "$A/3x3-bf-1.2.3.4-r5.pdb"
has "the blank in cell 5's region" "$T/out" "info shows the goal region"
run 0 "solve -H pdb --dual" "$NP" solve -H pdb --dual --pdb-dir "$A" -f csv "$T/boards8.txt"
same "$(lengths)" "$want" "--dual lengths vs BFS distances"
[ ! -s "$T/err" ] && ok || bad "solve --dual with every table: no note, got '$(cat "$T/err")'"
# a region table renamed as the standard one is refused by name
cp "$A/$F1" "$T/f1.keep"
cp "$A/3x3-bf-1.2.3.4-r5.pdb" "$A/$F1"
run 3 "a region table under the standard name" "$NP" solve -H pdb --pdb-dir "$A" -q "$H8"
has "$F1: is the table with the goal's blank in cell 5's region" "$T/err" "refused by name"
cp "$T/f1.keep" "$A/$F1"
run 0 "solve --dual --check hardest8" "$NP" solve -H pdb --dual -j 2 --pdb-dir "$A" --check -f csv -q "$H8"
same "$(lengths)" "31 31 " "--dual -j 2 hardest8 lengths"
run 2 "--reproduce kf2002 --dual" "$NP" solve --reproduce kf2002 --dual --pdb-dir "$A" -q "$H8"
has "--dual changes that" "$T/err" "--reproduce refuses --dual"
run 0 "solve --no-reflect --check hardest8" "$NP" solve -H pdb --no-reflect --pdb-dir "$A" --check -f csv -q "$H8"
same "$(lengths)" "31 31 " "--no-reflect hardest8 lengths"

# ---- zero-aware tables --------------------------------------------------------
ZD="$T/za"
run 3 "--zero-aware without tables" "$NP" solve --zero-aware --pdb-dir "$ZD" -q "$H8"
has "3x3-bf-1.2.3.4-z.pdb" "$T/err" "--zero-aware names the missing zero-aware table"
has "gen --partition 8:4-4 --zero-aware --pdb-dir" "$T/err" "... and says how to build it"
run 0 "solve --zero-aware --gen" "$NP" solve --zero-aware --gen --pdb-dir "$ZD" -f csv -q "$T/boards8.txt"
same "$(lengths)" "$want" "--zero-aware lengths vs BFS distances"
[ -f "$ZD/3x3-bf-5.6.7.8-z.pdb" ] && ok || bad "--gen did not build the zero-aware tables"
[ ! -s "$T/err" ] && ok || bad "solve -q --gen: standard error not quiet: '$(head -c 300 "$T/err")'"
run 0 "solve --zero-aware --check hardest8 -j 2" "$NP" solve --zero-aware -j 2 --pdb-dir "$ZD" --check -f csv -q "$H8"
same "$(lengths)" "31 31 " "--zero-aware hardest8 lengths"
awk -F, 'NR > 1 { n += $8 } END { print n }' "$T/out" >"$T/za_nodes"
run 0 "solve plain hardest8 -j 2" "$NP" solve -H pdb --no-zero-aware -j 2 --pdb-dir "$ZD" --check -f csv -q "$H8"
[ "$(cat "$T/za_nodes")" -lt "$(awk -F, 'NR > 1 { n += $8 } END { print n }' "$T/out")" ] && ok ||
    bad "--zero-aware did not generate fewer nodes than the plain tables on hardest8"
cp "$T/out" "$T/plain_out"
# by default the zero-aware tables are taken when they all exist; --no-zero-aware declines them
run 0 "solve, zero-aware tables there" "$NP" solve -H pdb -j 2 --pdb-dir "$ZD" --check -f csv -q "$H8"
same "$(awk -F, 'NR > 1 { n += $8 } END { print n }' "$T/out")" "$(cat "$T/za_nodes")" "the default takes the zero-aware tables"
run 0 "solve --no-zero-aware" "$NP" solve -H pdb --no-zero-aware -j 2 --pdb-dir "$ZD" --check -f csv -q "$H8"
same "$(awk -F, 'NR > 1 { n += $8 } END { print n }' "$T/out")" "$(awk -F, 'NR > 1 { n += $8 } END { print n }' "$T/plain_out")" "--no-zero-aware: the plain tables"
rm "$ZD/3x3-bf-5.6.7.8-z.pdb"
run 0 "solve, one zero-aware table missing" "$NP" solve -H pdb -j 2 --pdb-dir "$ZD" --check -f csv -q "$H8"
same "$(awk -F, 'NR > 1 { n += $8 } END { print n }' "$T/out")" "$(awk -F, 'NR > 1 { n += $8 } END { print n }' "$T/plain_out")" "a partial zero-aware set: the plain tables"
run 0 "gen --zero-aware again" "$NP" gen --partition 8:4-4 --zero-aware --pdb-dir "$ZD" -q
# a damaged zero-aware table that the default would take is refused by name, not passed over
cp "$ZD/3x3-bf-5.6.7.8-z.pdb" "$T/z-good"
printf '\377' | dd of="$ZD/3x3-bf-5.6.7.8-z.pdb" bs=1 seek=$((4096 + 10)) conv=notrunc status=none
cmp -s "$ZD/3x3-bf-5.6.7.8-z.pdb" "$T/z-good" && bad "the byte flip did not change the table" || ok
run 3 "solve, a damaged zero-aware table" "$NP" solve -H pdb --pdb-dir "$ZD" -q "$H8"
has "3x3-bf-5.6.7.8-z.pdb" "$T/err" "the message names the damaged zero-aware table"
run 0 "solve --no-zero-aware, a damaged zero-aware table" "$NP" solve -H pdb --no-zero-aware --pdb-dir "$ZD" -q "$H8"
cp "$T/z-good" "$ZD/3x3-bf-5.6.7.8-z.pdb"
# --reproduce kf2002 is the paper's search: the plain tables, even with zero-aware ones there
run 0 "--reproduce kf2002, zero-aware tables there" "$NP" solve --reproduce kf2002 --pdb-dir "$ZD" -f csv -q "$H8"
cp "$T/out" "$T/repro_out"
run 0 "parent pruning, plain tables" "$NP" solve -H pdb --prune parent --no-zero-aware --pdb-dir "$ZD" -f csv -q "$H8"
same "$(awk -F, 'NR > 1 { n += $8 } END { print n }' "$T/repro_out")" "$(awk -F, 'NR > 1 { n += $8 } END { print n }' "$T/out")" "--reproduce looks up the plain tables"
run 2 "--reproduce kf2002 --zero-aware" "$NP" solve --reproduce kf2002 --zero-aware --pdb-dir "$ZD" -q "$H8"
has "--zero-aware changes that" "$T/err" "--reproduce refuses --zero-aware"
run 2 "--zero-aware -H lc" "$NP" solve --zero-aware -H lc -q "$H8"
has "--zero-aware is for pattern databases; -H md or lc looks none up" "$T/err" "--zero-aware refuses another heuristic"
for opt in --zero-aware "--pdb-dir $ZD" --verify-tables --pdb-private; do
    # shellcheck disable=SC2086 # the option and its value, two words
    run 2 "$opt with --algorithm astar" "$NP" solve -a astar $opt -q "$H8"
    has "${opt%% *} is for pattern databases; --algorithm astar looks none up" "$T/err" \
        "A* refuses $opt, which it would ignore"
done
# a plain table under the zero-aware name is refused by name
cp "$ZD/3x3-bf-1.2.3.4.pdb" "$ZD/3x3-bf-1.2.3.4-z.pdb"
run 3 "--zero-aware, a plain table at the -z name" "$NP" solve --zero-aware --pdb-dir "$ZD" -q "$H8"
has "3x3-bf-1.2.3.4-z.pdb: a 4bit table, not a zero-aware one" "$T/err" "names the table and why"
# --dual --zero-aware: the dual lookups' tables in their zero-aware form too,
# taken where they are there (each one, else its plain form)
ZV="$T/zdual"
run 0 "gen 8:4-4 --dual --zero-aware" "$NP" gen --partition 8:4-4 --dual --zero-aware --pdb-dir "$ZV" --quiet
[ "$(ls "$ZV" | grep -c '\.pdb$')" -eq 22 ] && ok || bad "gen --dual --zero-aware: $(ls "$ZV" | tr '\n' ' ')"
[ -f "$ZV/3x3-bf-1.2.3.4-r5-z.pdb" ] && [ -f "$ZV/3x3-bf-1.2.4-z.pdb" ] && ok || bad "gen --dual --zero-aware file names"
"$NP" info --format json "$ZV/3x3-bf-1.2.3.4-r5-z.pdb" >"$T/info" && grep -q '"encoding":"4bit+za"' "$T/info" && grep -q '"goal_region":5' "$T/info" \
    && ok || bad "info on a zero-aware region table: $(cat "$T/info")"
run 0 "solve --dual --zero-aware --check hardest8" "$NP" solve -H pdb --dual --zero-aware -j 2 --pdb-dir "$ZV" --check -f csv -q "$H8"
awk -F, 'NR > 1 { n += $8 } END { print n }' "$T/out" >"$T/zdual_nodes"
run 0 "solve --dual --zero-aware, boards vs md" "$NP" solve -H pdb --dual --zero-aware --pdb-dir "$ZV" -f csv -q "$T/boards8.txt"
same "$(lengths)" "$want" "--dual --zero-aware lengths vs BFS distances"
for f in "$ZV"/*-r*-z.pdb "$ZV"/3x3-bf-?.?.?-z.pdb; do mv "$f" "$f.away"; done
run 0 "solve --dual --zero-aware, plain dual tables" "$NP" solve -H pdb --dual --zero-aware -j 2 --pdb-dir "$ZV" --check -f csv -q "$H8"
[ "$(cat "$T/zdual_nodes")" -lt "$(awk -F, 'NR > 1 { n += $8 } END { print n }' "$T/out")" ] && ok ||
    bad "the zero-aware dual tables did not cut nodes: $(cat "$T/zdual_nodes") vs $(awk -F, 'NR > 1 { n += $8 } END { print n }' "$T/out")"
for f in "$ZV"/*.away; do mv "$f" "${f%.away}"; done
cp "$ZV/3x3-bf-1.2.3.4-r5.pdb" "$ZV/3x3-bf-1.2.3.4-r5-z.pdb"
run 3 "--dual --zero-aware, a plain table at a dual -z name" "$NP" solve --dual --zero-aware --pdb-dir "$ZV" -q "$H8"
has "3x3-bf-1.2.3.4-r5-z.pdb: a 4bit table, not a zero-aware one" "$T/err" "names the dual table and why"

# ---- one board on two threads ------------------------------------------------
echo "$BOARD8" >"$T/one8.txt"
run 0 "-j 2 one 8-puzzle board" "$NP" solve -H pdb -j 2 --pdb-dir "$A" -f csv -q "$T/one8.txt"
same "$(lengths)" "31 " "-j 2 one 8-puzzle board"

# A 15-puzzle board is what the split search is for: 15:6-6-3 builds in seconds.
B="$T/b"
run 0 "gen 15:6-6-3" "$NP" gen --partition 15:6-6-3 --pdb-dir "$B" --quiet
for id in 9 12 19 60; do
    grep -E "id=$id opt=" "$DATA/korf100.txt" >"$T/one15.txt"
    opt=$(sed -n 's/.*opt=\([0-9]*\).*/\1/p' "$T/one15.txt")
    run 0 "Korf #$id -j 1" "$NP" solve -H pdb --partition 15:6-6-3 --pdb-dir "$B" -j 1 --check -f csv -q "$T/one15.txt"
    same "$(lengths)" "$opt " "Korf #$id -j 1 length"
    run 0 "Korf #$id -j 2" "$NP" solve -H pdb --partition 15:6-6-3 --pdb-dir "$B" -j 2 --check -f csv -q "$T/one15.txt"
    same "$(lengths)" "$opt " "Korf #$id -j 2 length"
done

# ---- missing tables ------------------------------------------------------------
E="$T/empty"
mkdir -p "$E"
run 3 "-H pdb with no tables" "$NP" solve -H pdb --pdb-dir "$E" <<<"$BOARD8"
has "$F1" "$T/err" "missing-table message names the file"
has "npuzzle gen --partition 8:4-4" "$T/err" "missing-table message names the gen command"
[ -s "$T/out" ] && bad "nothing may be solved when tables are missing: $(cat "$T/out")" || ok

# only the second table missing: that one is named
P="$T/partial"
mkdir -p "$P"
cp "$A/$F1" "$P/"
run 3 "-H pdb with one table missing" "$NP" solve -H pdb --pdb-dir "$P" <<<"$BOARD8"
has "$F2" "$T/err" "names the one missing file"

# --gen builds what is missing, then solves
run 0 "-H pdb --gen" "$NP" solve -H pdb --gen --pdb-dir "$E" -f csv <<<"$BOARD8"
same "$(lengths)" "31 " "--gen length"
[ -f "$E/$F1" ] && [ -f "$E/$F2" ] && ok || bad "--gen did not write the tables: $(ls -A "$E")"
cmp -s "$E/$F1" "$A/$F1" && cmp -s "$E/$F2" "$A/$F2" && ok || bad "--gen wrote other tables than gen"
# and they are reused
run 0 "-H pdb after --gen" "$NP" solve -H pdb --pdb-dir "$E" -f csv -q <<<"$BOARD8"
same "$(lengths)" "31 " "length after --gen"

# ---- a corrupted table: one payload byte flipped -------------------------------
C="$T/corrupt"
mkdir -p "$C"
cp "$A/$F1" "$A/$F2" "$C/"
off=$((4096 + 777))
byte=$(od -An -tu1 -j "$off" -N1 "$C/$F2" | tr -d ' ')
printf '%b' "$(printf '\\%03o' $(((byte ^ 0x5a) & 255)))" |
    dd of="$C/$F2" bs=1 seek="$off" conv=notrunc status=none
cmp -s "$C/$F2" "$A/$F2" && bad "the byte flip did not change $F2" || ok
run 3 "-H pdb with a corrupt table" "$NP" solve -H pdb --pdb-dir "$C" <<<"$BOARD8"
has "$F2" "$T/err" "corrupt-table message names the file"
has "checksum" "$T/err" "corrupt-table message says what is wrong"
has "rebuild the tables with: npuzzle gen" "$T/err" "corrupt-table message says how to rebuild them"
run 3 "-H pdb --pdb-private with a corrupt table" "$NP" solve -H pdb --pdb-private --pdb-dir "$C" <<<"$BOARD8"
has "$F2" "$T/err" "  ... --pdb-private: the message names the file"
[ -s "$T/out" ] && bad "--pdb-private: nothing may be solved with a corrupt table: $(cat "$T/out")" || ok
[ -s "$T/out" ] && bad "nothing may be solved with a corrupt table: $(cat "$T/out")" || ok
# without -H the solver must not silently fall back on a corrupt file either
run 3 "default heuristic with a corrupt table" "$NP" solve --pdb-dir "$C" <<<"$BOARD8"
has "$F2" "$T/err" "corrupt-table message names the file (default heuristic)"

# ---- the record of verified tables: trusted by default, not with --verify-tables -------
V="$T/verified"
mkdir -p "$V"
cp "$A/$F1" "$A/$F2" "$V/"
printf '%b' "$(printf '\\%03o' $(((byte ^ 0x5a) & 255)))" |
    dd of="$V/$F2" bs=1 seek="$off" conv=notrunc status=none
W="$T/verified-set"
mkdir -p "$W"
cp "$A"/*.pdb "$W/"
# a table changed in the last NPUZZLE_PDB_SETTLE seconds (default 900) is never recorded
export NPUZZLE_PDB_SETTLE=2
sleep 3
# a set opened together (the 11 tables of --dual) is recorded whole, in one rewrite
# (LeakSanitizer cannot run under ptrace: leak checks are off for the traced run)
if command -v strace >/dev/null && strace -o /dev/null true 2>/dev/null; then
    rc=0
    ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
        strace -f -o "$T/strace" -e trace=rename,renameat,renameat2 \
        "$NP" solve -H pdb --dual --pdb-dir "$W" -q "$H8" >/dev/null 2>"$T/err" || rc=$?
    [ "$rc" -eq 0 ] && ok || bad "solve --dual under strace: exit $rc: $(cat "$T/err")"
    n=$(grep -c 'npuzzle-verified"' "$T/strace")
    [ "$n" -eq 1 ] && ok || bad "the record of 11 tables opened together was written $n times"
else
    run 0 "solve --dual, the set recorded whole" "$NP" solve -H pdb --dual --pdb-dir "$W" -q "$H8"
    echo "  (no working strace: the record's rewrites are not counted)"
fi
for f in "$W"/*.pdb; do
    grep -q " ${f##*/}\$" "$W/.npuzzle-verified" && ok || bad "${f##*/} not in the record"
done
run 3 "a corrupt table, no record yet" "$NP" solve -H pdb --pdb-dir "$V" -q "$H8"
has "$F2" "$T/err" "  ... the message names the corrupt table"
has " $F1" "$V/.npuzzle-verified" "  ... the good table is recorded as verified"
grep -q " $F2\$" "$V/.npuzzle-verified" && bad "the corrupt table was recorded as verified" || ok
# A record line forged for the corrupt table (its identity now, its header's checksum) is
# trusted: the table is not hashed. That is the record's whole effect; --verify-tables hashes.
sum=$("$NP" info "$V/$F2" | sed -n 's/^payload:.*xxh3 \([0-9a-f]*\)$/\1/p')
boot=$(cat /proc/sys/kernel/random/boot_id 2>/dev/null || echo -)
echo "$sum $boot $(stat -c '%d %i %s %.9Y %.9Z' "$V/$F2") $F2" >>"$V/.npuzzle-verified"
run 0 "a record forged for a corrupt table is trusted" "$NP" solve -H pdb --pdb-dir "$V" -q "$H8"
run 3 "--verify-tables hashes it anyway" "$NP" solve -H pdb --verify-tables --pdb-dir "$V" -q "$H8"
has "$F2" "$T/err" "  ... the message names the corrupt table"
has "checksum" "$T/err" "  ... and says what is wrong"
unset NPUZZLE_PDB_SETTLE

# ---- no -H and no tables: fall back with a note ----------------------------------
run 0 "no -H, no tables (--pdb-dir)" "$NP" solve --pdb-dir "$T/none" -f csv <<<"$BOARD8"
same "$(lengths)" "31 " "fallback length"
[ -s "$T/err" ] && ok || bad "fallback printed no note on stderr"
has "npuzzle gen" "$T/err" "fallback note says how to build the tables"
[ -e "$T/none" ] && bad "fallback created $T/none" || ok
# the same with the default directory (an empty cache)
run 0 "no -H, no tables (default dir)" "$NP" solve -f csv <<<"$BOARD8"
same "$(lengths)" "31 " "fallback length (default dir)"
[ -s "$T/err" ] && ok || bad "fallback (default dir) printed no note on stderr"
# with tables and no -H, the PDBs are used: no note
run 0 "no -H, tables present" "$NP" solve --pdb-dir "$A" -f csv <<<"$BOARD8"
same "$(lengths)" "31 " "default heuristic length with tables"
[ -s "$T/err" ] && bad "a note on stderr although the tables exist: $(cat "$T/err")" || ok

# ---- the commands solve's messages give build what solve opens --------------------
# A zero-aware set, chosen because it is all there: --gen with --dual builds the missing dual
# tables for it and opens it again, so a second run (nothing to build) opens the same set and
# counts the same nodes; a corrupt table of it is named with a rebuild command that mends it.
Z="$T/za"
run 0 "gen 8:4-4 --zero-aware" "$NP" gen --partition 8:4-4 --zero-aware --pdb-dir "$Z" --quiet
run 0 "solve --dual --gen, zero-aware tables present" "$NP" solve -H pdb --dual --gen -q --pdb-dir "$Z" -f csv "$H8"
first=$(cut -d, -f1,5,7,8 "$T/out")
run 0 "the same command again" "$NP" solve -H pdb --dual --gen -q --pdb-dir "$Z" -f csv "$H8"
same "$(cut -d, -f1,5,7,8 "$T/out")" "$first" "--gen: the run that built the dual tables and the next count alike"
cp -r "$Z" "$T/zbad"
printf '\377' | dd of="$T/zbad/3x3-bf-1.2.3.4-z.pdb" bs=1 seek=3000 conv=notrunc 2>/dev/null
run 3 "a corrupt zero-aware table, picked by default" "$NP" solve -H pdb -q --pdb-dir "$T/zbad" "$H8"
hint=$(sed -n 's/^  rebuild the tables with: //p' "$T/err")
has "--zero-aware" "$T/err" "  ... the rebuild command builds the zero-aware tables"
if [ -n "$hint" ]; then
    # shellcheck disable=SC2086 # the command as printed, word by word
    run 0 "the rebuild command, as printed" "$NP" ${hint#npuzzle } --quiet
    run 0 "  ... then the same solve" "$NP" solve -H pdb -q --pdb-dir "$T/zbad" "$H8"
else
    bad "no rebuild command in: $(cat "$T/err")"
fi
# blank-last boards: the build command names the goal
run 3 "--goal blank-last, no tables" "$NP" solve -H pdb --goal blank-last -q --pdb-dir "$T/bl" "$H8"
hint=$(sed -n 's/^  build the tables with: \(.*\)   (or add --gen)$/\1/p' "$T/err")
has "--goal blank-last" "$T/err" "  ... the build command names the goal"
if [ -n "$hint" ]; then
    # shellcheck disable=SC2086
    run 0 "the build command, as printed" "$NP" ${hint#npuzzle } --quiet
    run 0 "  ... then the same solve" "$NP" solve -H pdb --goal blank-last -q --pdb-dir "$T/bl" "$H8"
else
    bad "no build command in: $(cat "$T/err")"
fi

# ---- a FIFO in a compressed table's place is refused, not waited on ------------------
FF="$T/fifo"
mkdir -p "$FF" && cp "$A/$F2" "$FF/" && mkfifo "$FF/$F1.zst"
run 3 "a FIFO at $F1.zst (no $F1): solve" timeout 20 "$NP" solve -H pdb -q --pdb-dir "$FF" "$H8"
has "$F1.zst: not a regular file" "$T/err" "  ... refused by name"
run 3 "  ... info on it" timeout 20 "$NP" info "$FF/$F1.zst"
has "not a regular file" "$T/err" "  ... refused by name"
rm "$FF/$F1.zst"
"$NP" gen --partition 8:4-4 --compress --pdb-dir "$T/zsrc" --quiet >/dev/null 2>&1
cp "$T/zsrc/$F1.zst" "$FF/" && mkfifo "$FF/$F1"
run 3 "info X.pdb.zst beside a FIFO at X.pdb" timeout 20 "$NP" info "$FF/$F1.zst"
has "$F1: not a regular file" "$T/err" "  ... the FIFO refused by name"

# ---- a directory at a table's name: solve says to remove it, and then the command it gives works
DD="$T/dirname"
mkdir -p "$DD" && cp "$A/$F2" "$DD/" && mkdir "$DD/$F1"
run 3 "a directory at $F1" "$NP" solve -H pdb -q --pdb-dir "$DD" "$H8"
has "remove the directory $DD/$F1" "$T/err" "  ... solve says to remove it"
hint=$(sed -n 's/^  remove the directory .*, then build the tables with: //p' "$T/err")
rmdir "$DD/$F1"
if [ -n "$hint" ]; then
    # shellcheck disable=SC2086
    run 0 "  ... then the command it gives" "$NP" ${hint#npuzzle } --quiet
    run 0 "  ... then the same solve" "$NP" solve -H pdb -q --pdb-dir "$DD" "$H8"
else
    bad "no build command in: $(cat "$T/err")"
fi

cli_summary
