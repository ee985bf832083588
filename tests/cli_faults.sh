#!/usr/bin/env bash
# cli_faults.sh - faults around `npuzzle gen` and `npuzzle solve`: each ends with the right exit code,
# a message naming the problem, and no file left behind that loads or was half-written.
#
# usage: bash tests/cli_faults.sh PATH_TO_NPUZZLE     (NPUZZLE_DATA_DIR: the data/ folder)
#
# Covered: a PDB directory that cannot be created (a path under a regular file, which
# fails for root too); SIGINT in the middle of generating a 15-puzzle 6-tile table, and
# SIGINT or SIGTERM while `solve --gen` builds one;
# empty input, a binary file, a 10 MB line, and 100,000 boards in one file for solve.
set -u

. "$(dirname "$0")/cli_lib.sh"
cli_start "$@"
GENPID=""
cleanup() {
    [ -n "$GENPID" ] && kill -9 "$GENPID" 2>/dev/null
    rm -rf "$T"
}

# peak resident memory (KiB) of a command, via GNU time; empty when unavailable
TIMEBIN=""
if /usr/bin/time -f %M true >/dev/null 2>&1; then TIMEBIN=/usr/bin/time; fi
# run_mem FILE ARGS...: run_in, with the peak RSS in $rss (KiB, or empty)
rss=""
run_mem() {
    local in=$1
    shift
    LAST="npuzzle $* < $in"
    rss=""
    if [ -n "$TIMEBIN" ]; then
        "$TIMEBIN" -f %M -o rss.txt "$NP" "$@" <"$in" >out 2>err
        rc=$?
        rss=$(tail -1 rss.txt)
    else
        "$NP" "$@" <"$in" >out 2>err
        rc=$?
    fi
}
# mem_below NAME KIB: the last run_mem stayed below KIB (skipped without GNU time)
mem_below() {
    if [ -z "$rss" ]; then
        skip "$1 (no GNU time to measure memory)"
    elif [ "$rss" -lt "$2" ]; then
        pass "$1 (peak RSS $rss KiB < $2)"
    else
        fail "$1: peak RSS $rss KiB, want < $2"
    fi
}

# ---- gen: a PDB directory that cannot be created --------------------------------
touch regular
run gen --partition 8:4-4 --pdb-dir "$T/regular/pdb" -j 1 --quiet
expect "gen into a path under a regular file" 3 err "regular/pdb"
truth "  ... nothing created there" test ! -e "$T/regular/pdb"
mkdir -p ro/pdb
chmod 0555 ro/pdb
if [ "$(id -u)" -ne 0 ]; then
    run gen --partition 8:4-4 --pdb-dir "$T/ro/pdb" -j 1 --quiet
    expect "gen into a read-only directory" 3 err "cannot write in the PDB directory .*ro/pdb"
    truth "  ... no file, no temporary file" test -z "$(ls -A ro/pdb)"
elif nobody_can; then
    as_nobody gen --partition 8:4-4 --pdb-dir "$T/ro/pdb" -j 1 --quiet
    expect "gen into a read-only directory (as uid 65534)" 3 \
        err "cannot write in the PDB directory .*ro/pdb"
    truth "  ... no file, no temporary file" test -z "$(ls -A ro/pdb)"
else
    skip "gen into a read-only directory (running as root, which may write there; $why)"
fi
chmod 0755 ro/pdb
# A directory no file can be made in, root or not (procfs): refused before any table is built
# (checked only when a table is to be built: tables all kept need no writes)
if [ -d /proc/self ]; then
    run gen --partition 8:4-4 --pdb-dir /proc/self -j 1
    expect "gen into /proc/self: refused before building, exit 3" 3 \
        err "cannot write in the PDB directory /proc/self"
    truth "  ... no table built first" eval '! grep -q "building" err && [ ! -s out ]'
fi

# ---- gen: SIGINT in the middle of a big table -----------------------------------
# signal_after_building SIG INPUT ARGS...: start `npuzzle ARGS` in the background with
# standard input from INPUT, wait until it says it is building its first table, let it run
# $DELAY s more, send SIG, and wait. $rc is its status; $early is set when it had finished
# before the signal.
DELAY=${NPUZZLE_FAULT_DELAY:-0.2}
early=""
signal_after_building() {
    local sig=$1 input=$2
    shift 2
    early=""
    # Job control on: a background job of a non-interactive shell would ignore SIGINT. SIGHUP set
    # to its default: this test may itself run under nohup, and a shell cannot undo a signal
    # ignored when it started.
    set -m
    # shellcheck disable=SC2154 # (cli_lib.sh)
    "${default_hup[@]}" "$NP" "$@" <"$input" >out 2>err &
    GENPID=$!
    set +m
    local i
    for ((i = 0; i < 1200; i++)); do
        grep -q "building" err && break
        kill -0 "$GENPID" 2>/dev/null || break
        sleep 0.05
    done
    sleep "$DELAY"
    kill -"$sig" "$GENPID" 2>/dev/null || early=1
    wait "$GENPID"
    rc=$?
    GENPID=""
}
# interrupt_gen ARGS...: `npuzzle gen ARGS` stopped by SIGINT (signal_after_building).
interrupt_gen() {
    LAST="npuzzle gen $* (SIGINT $DELAY s after 'building')"
    signal_after_building INT /dev/null gen "$@"
    [ "$rc" -eq 0 ] && early=1
}
# interrupted NAME: gen was stopped by the signal and said so on stderr
interrupted() {
    if [ -n "$early" ]; then
        skip "$1: gen finished before the signal (exit $rc); raise NPUZZLE_FAULT_DELAY's precision"
        return 1
    fi
    if [ "$rc" -ne 0 ]; then pass "$1: gen exits non-zero ($rc)"; else fail "$1: gen exited 0"; fi
    if grep -Eqi "interrupt|signal|cancel" err; then pass "$1: a message says it was interrupted"; else
        fail "$1: no message on stderr saying the generation was interrupted"
    fi
    return 0
}

# 1. A fresh directory and 15:6-6-3 -j 1, of which the 3-tile table already exists:
# no 6-tile table may appear, nor a temporary file; the 3-tile table stays as it was.
D="$T/pdb663"
run gen --size 4x4 --pattern 13,14,15 --pdb-dir "$D" -j 1 --quiet
expect "gen the 3-tile table of 15:6-6-3" 0
P3="$D/4x4-bf-13.14.15.pdb"
cp -p "$P3" p3.before
ino3=$(stat -c %i "$P3")
interrupt_gen --partition 15:6-6-3 --pdb-dir "$D" -j 1
if interrupted "SIGINT (fresh 15:6-6-3)"; then
    ls "$D"/4x4-bf-1.4.5.8.9.12.pdb* "$D"/4x4-bf-2.3.6.7.10.11.pdb* >/dev/null 2>&1 &&
        fail "SIGINT (fresh): a 6-tile table was left: $(ls "$D")" || pass "SIGINT (fresh): no 6-tile table left"
fi
truth "SIGINT (fresh): no temporary file left in $D" no_temp "$D"
truth "SIGINT (fresh): the 3-tile table is untouched (bytes and inode)" \
    eval 'cmp -s "$P3" p3.before && [ "$(stat -c %i "$P3")" = "$ino3" ]'
run info "$P3"
expect "SIGINT (fresh): the 3-tile table still loads" 0 out "checksum: *ok"

# 2. A valid 6-tile table rebuilt with --force and interrupted: the old file stays,
# byte for byte and the same inode (the new one was never renamed over it).
P6="$D/4x4-bf-1.4.5.8.9.12.pdb"
run gen --size 4x4 --pattern 1,4,5,8,9,12 --pdb-dir "$D" -j 1 --quiet
expect "gen a 6-tile table" 0
cp -p "$P6" p6.before
ino6=$(stat -c %i "$P6")
interrupt_gen --size 4x4 --pattern 1,4,5,8,9,12 --pdb-dir "$D" -j 1 --force
if interrupted "SIGINT (--force rebuild)"; then
    truth "SIGINT (--force rebuild): the previous table is untouched (bytes and inode)" \
        eval 'cmp -s "$P6" p6.before && [ "$(stat -c %i "$P6")" = "$ino6" ]'
fi
truth "SIGINT (--force rebuild): no temporary file left in $D" no_temp "$D"
run info "$P6"
expect "SIGINT (--force rebuild): the 6-tile table loads" 0 out "checksum: *ok"

# 3. `solve --gen` builds in its own process: SIGINT, SIGTERM or SIGHUP during the build stops it
# as it stops gen, with exit 130 (as documented), no results and no table left.
echo "1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15" >board15.txt
for sig in INT TERM HUP; do
    E="$T/solve$sig"
    LAST="npuzzle solve -H pdb --gen --partition 15:6-6-3 --pdb-dir $E -j 1 (SIG$sig $DELAY s after 'building')"
    signal_after_building "$sig" board15.txt solve -H pdb --gen --partition 15:6-6-3 --pdb-dir "$E" -j 1
    if [ -n "$early" ] || [ "$rc" -eq 0 ]; then
        skip "solve --gen, SIG$sig: the build finished before the signal (exit $rc)"
        continue
    fi
    expect "solve --gen, SIG$sig during the build: exit 130" 130 err "npuzzle gen: interrupted"
    truth "  ... no results on standard output" test ! -s out
    truth "  ... no 6-tile table, no temporary file" eval '! ls "$E" | grep -q "1\.4\.5\.8\.9\.12" && no_temp "$E"'
done
run help gen
expect "help gen documents exit code 130" 0 out "130 interrupted"
run help solve
expect "help solve documents exit code 130" 0 out "130 interrupted"

# ---- solve: empty input, binary input, a 10 MB line ------------------------------
: >empty.txt
run_in empty.txt solve -H md
expect "solve: empty standard input" 0 out "0 boards"
run solve -H md empty.txt
expect "solve: empty file" 0 out "0 boards"
printf '# only comments\n\n   \n' >comments.txt
run solve -H md --format json comments.txt
expect "solve: comments only, json" 0
truth "  ... prints nothing" test ! -s out
head -c 65536 "$NP" >binary.bin
run solve -H md binary.bin
expect "solve: a binary file" 2 err "binary.bin:[0-9]+: field" err "nothing solved"
LC_ALL=C awk 'BEGIN { srand(7); for (i = 0; i < 4096; i++) printf "%c", 1 + int(rand() * 255) }' >noise.bin
run solve -H md noise.bin
expect "solve: random bytes without NUL" 2 err "noise.bin:[0-9]+: field"
# 10 MB of digits and spaces on one line, then a valid board
{ head -c 10485760 /dev/zero | tr '\0' '7'; echo; echo "1 0 2 3 4 5 6 7 8"; } >bigline.txt
run_mem bigline.txt solve -H md
expect "solve: a 10 MB line" 2 err "<stdin>:1: field 1: '7{20}\.\.\.' has too many digits"
mem_below "solve: a 10 MB line in bounded memory" 262144
{ yes '1 2 3 4 5' | head -n 1048576 | tr '\n' ' '; echo; } >bignums.txt
run_mem bignums.txt solve -H md
expect "solve: a 10 MB line of numbers" 2 err "<stdin>:1: field 65: too many numbers"
mem_below "solve: ... in bounded memory" 262144
{ echo "1 0 2 3 4 5 6 7 8  # id=$(head -c 10485760 /dev/zero | tr '\0' 'x')"; } >bigid.txt
run_mem bigid.txt solve -H md --format csv
expect "solve: a 10 MB id: refused, its length named" 2 err "<stdin>:1: field id: .* 10485760 bytes long"
mem_below "solve: ... in bounded memory" 262144

# ---- solve: 100,000 boards in one file ---------------------------------------------
# 3x3 random walks of 1..40 moves from the goal (awk, fixed seed): all solvable.
awk 'BEGIN {
    srand(12345);
    for (n = 0; n < 100000; n++) {
        for (c = 0; c < 9; c++) t[c] = c;
        b = 0; k = 1 + int(rand() * 40); prev = -1;
        for (m = 0; m < k; m++) {
            do { d = int(rand() * 4) } while (d == 3 - prev);
            r = int(b / 3); col = b % 3;
            if (d == 0 && r > 0) to = b - 3; else if (d == 3 && r < 2) to = b + 3;
            else if (d == 1 && col > 0) to = b - 1; else if (d == 2 && col < 2) to = b + 1;
            else continue;
            t[b] = t[to]; t[to] = 0; b = to; prev = d;
        }
        s = t[0]; for (c = 1; c < 9; c++) s = s " " t[c];
        print s;
    }
}' >many.txt
truth "100,000 boards written" test "$(wc -l <many.txt)" -eq 100000
run_mem many.txt solve -H md --format csv -q
expect "solve: 100,000 boards, -H md" 0
truth "  ... 100,000 records and a header" test "$(wc -l <out)" -eq 100001
truth "  ... every one solved" test "$(grep -c ',3x3,solved,' out)" -eq 100000
mem_below "  ... in bounded memory" 1048576
cp out many.csv
run verify -q --boards many.txt --results many.csv
expect "  ... every answer verifies (npuzzle verify)" 0 out "100000 boards: 100000 ok, 0 wrong"

cli_summary
