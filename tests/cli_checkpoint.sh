#!/usr/bin/env bash
# cli_checkpoint.sh - `npuzzle solve` split over threads and stopped on the way: -j 1, 2 and 3 give
# the same moves and counts; a run killed with SIGKILL at random moments and resumed from its
# --checkpoint each time ends with the output of an uninterrupted run; SIGINT and SIGTERM leave a
# checkpoint the run finishes from; damaged and foreign checkpoints are refused by name.
# usage: cli_checkpoint.sh NPUZZLE_BINARY
set -u
. "$(dirname "$0")/cli_lib.sh"
cli_start "$@"

# answers FILE: each json line without the fields that depend on timing: seconds, and the work
# done beyond the serial count (nodes_extra)
answers() { sed -E 's/"seconds":[0-9.]+,//; s/"nodes_extra":[0-9]+,//' "$1"; }
# wait_for COND: poll COND (a shell test) every 10 ms while the run in the background ($pid)
# lives; false if it ended first
wait_for() {
    while kill -0 $pid 2>/dev/null; do
        eval "$1" && return 0
        sleep 0.01
    done
    return 1
}
# same_answers NAME A B: files A and B give the same answers
same_answers() {
    if [ "$(answers "$2")" = "$(answers "$3")" ] && [ -s "$2" ]; then pass "$1"; else
        fail "$1"
        diff <(answers "$2") <(answers "$3") | head -6 | sed 's/^/     /'
    fi
}

# Korf's instances 5, 2, 4, 1 and 11, solved with linear conflict (no tables needed): 2.7 to 26
# million nodes each (0.03 to 0.5 s in a release build).
for id in 5 2 4 1 11; do grep -E "# id=$id opt=" "$DATA/korf100.txt"; done >k5.txt
[ "$(wc -l <k5.txt)" -eq 5 ] || { echo "cli_checkpoint: Korf's instances not found in $DATA" >&2; exit 2; }
sed -n 5p k5.txt >one.txt # the longest of them, #11: 25,537,947 nodes

# ---- the serial counts on any number of threads -----------------------------------------------
for i in 1 2 3 4; do
    sed -n "${i}p" k5.txt >b$i.txt
    for j in 1 2 3; do
        "$NP" solve -H lc -j $j -f json -q b$i.txt >j$j.json 2>err || fail "board $i, -j $j: exit $?"
    done
    LAST="npuzzle solve -H lc -j 1|2|3 -f json b$i.txt"
    same_answers "Korf #$i: -j 2 gives the moves and counts of -j 1" j1.json j2.json
    same_answers "Korf #$i: -j 3 gives the moves and counts of -j 1" j1.json j3.json
done

# redigest IN OUT REGEX REPLACEMENT: IN with REGEX (python's re) replaced in its body lines, and
# the end line redone (FNV-1a 64 over the lines before it), as a checkpoint edited with care
redigest() {
    python3 - "$@" <<'PY'
import re, sys
src, dst, pat, rep = sys.argv[1:5]
lines = [l for l in open(src).read().split("\n") if l and not l.startswith("end ")]
text = "".join(re.sub(pat, rep, l) + "\n" for l in lines)
h = 0xcbf29ce484222325
for b in text.encode():
    h = ((h ^ b) * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
open(dst, "w").write(text + "end %016x\n" % h)
PY
}
# the uninterrupted runs, and their wall times in milliseconds (the kills below fall within them)
ms() { date +%s%3N; }
t0=$(ms)
"$NP" solve -H lc -j 2 -f json -q one.txt >ref1.json
t1=$(ms)
"$NP" solve -H lc -j 2 -f json -q k5.txt >ref5.json
t5=$(($(ms) - t1))
t1=$((t1 - t0))
# they are the truth the resumed runs are held to: their moves replay to the goal and their lengths
# are Korf's published optima (npuzzle verify replays them without searching)
run verify -q --boards k5.txt --results ref5.json
expect "the uninterrupted five boards: optimal (verify against Korf's lengths)" 0 out "5 ok"
run verify -q --boards one.txt --results ref1.json
expect "the uninterrupted one board: optimal (verify against Korf's length)" 0 out "1 ok"

# ---- killed with SIGKILL at random moments, resumed -----------------------------------------
# kill_and_resume NAME INPUT REF MS: start the run and kill it at a random moment within the first
# 60 % of MS milliseconds (the uninterrupted run's time), five times, each time starting it again
# with the same command; the sixth start runs to its end. Its output must be REF's.
RANDOM=4242
kill_and_resume() {
    local name=$1 input=$2 ref=$3 span=$(($4 * 6 / 10 + 1)) kills=0 starts=0 st
    rm -f ck
    while :; do
        starts=$((starts + 1))
        "$NP" solve -H lc -j 2 -f json -q --checkpoint ck --checkpoint-every 0 "$input" >out 2>err &
        local pid=$!
        if [ $starts -le 5 ]; then
            local d=$((20 + RANDOM % span))
            sleep "$(printf '%d.%03d' $((d / 1000)) $((d % 1000)))"
            kill -KILL $pid 2>/dev/null && kills=$((kills + 1))
        fi
        { wait $pid; } 2>/dev/null # no "Killed" line from bash
        st=$?
        [ $st -eq 0 ] && break
        if [ $st -ne 137 ] || [ $starts -gt 5 ]; then
            LAST="npuzzle solve --checkpoint ck $input (start $starts)"
            rc=$st
            fail "$name: a start ended with exit $st"
            return
        fi
    done
    LAST="npuzzle solve -H lc -j 2 --checkpoint ck $input, killed $kills times"
    rc=0
    echo "     ($name: $kills kills, $starts starts)"
    if [ $kills -lt 2 ]; then
        skip "$name: the run ended before two kills (machine too fast for this board)"
    else
        same_answers "$name: killed $kills times and resumed, the uninterrupted answers" "$ref" out
    fi
}
kill_and_resume "one board on two threads" one.txt ref1.json $t1
kill_and_resume "five boards" k5.txt ref5.json $t5

# ---- SIGINT, SIGTERM and SIGHUP ----------------------------------------------------------------
# signal_late SIG [IGNORED]: a fresh `solve --checkpoint ck one.txt` (out, err) sent SIG once its
# last iteration starts (the progress line "bound OPT next"; some 60 % of the run's time is left
# then), started with the signal IGNORED ignored (as nohup does) when given; $rc. (A signal sent
# half the uninterrupted run's time in came, on a loaded machine, before the board's search began,
# or after the run had ended.)
opt1=$(sed -E 's/.*opt=([0-9]+).*/\1/' one.txt)
signal_late() {
    local sig=$1 ignored=${2:-}
    rm -f ck out err # (err must not hold an earlier run's progress lines)
    # (SIGHUP set to its default first: this test may itself run under nohup, and a shell cannot
    # undo a signal ignored when it started)
    (
        if [ -n "$ignored" ]; then trap '' "$ignored"; dfl=(); else dfl=("${default_hup[@]}"); fi
        exec "${dfl[@]}" "$NP" solve -H lc -j 2 -f json --progress --checkpoint ck one.txt >out 2>err
    ) &
    pid=$!
    wait_for "grep -qE 'bound $opt1 next; ' err 2>/dev/null"
    kill -"$sig" $pid 2>/dev/null
    wait $pid
    rc=$?
    LAST="npuzzle solve --checkpoint ck one.txt, SIG$sig in its last iteration${ignored:+ (SIG$ignored ignored)}"
}
for sig in INT TERM HUP; do
    signal_late $sig
    if [ $rc -eq 0 ]; then
        skip "SIG$sig: the run ended before the signal"
        continue
    fi
    expect "SIG$sig: exit 130, the checkpoint named, no answers" 130 err "interrupted; checkpoint ck written"
    check "SIG$sig: nothing on standard output" test ! -s out
    check "SIG$sig: the checkpoint holds the board in progress" grep -q '^iter 0 ' ck
    run solve -H lc -j 2 -f json --checkpoint ck one.txt
    expect "SIG$sig: the same command finishes" 0
    same_answers "SIG$sig: resumed, the uninterrupted answers" ref1.json out
done

# SIGHUP ignored when the run starts (nohup): left ignored, the run goes on to its end
signal_late HUP HUP
expect "SIGHUP ignored as under nohup: the run ends as if never signalled, exit 0" 0
same_answers "  ... the uninterrupted answers" ref1.json out

# A finished run's checkpoint answers again without searching.
run solve -H lc -j 1 -f json --checkpoint ck one.txt
expect "a finished checkpoint answers again (with -j 1)" 0
same_answers "a finished checkpoint: the same answers" ref1.json out
check "a finished checkpoint: one done line" test "$(grep -c '^done ' ck)" -eq 1

# ---- damaged and foreign checkpoints ------------------------------------------------------------
rm -f ck err
"$NP" solve -H lc -j 2 -f json --progress --progress-every 0 --checkpoint-every 0 --checkpoint ck one.txt \
    >out 2>err &
pid=$!
wait_for "grep -qE 'bound $opt1: [0-9]+ of ' err 2>/dev/null"
kill -INT $pid
wait $pid
cp ck good
head -c $(($(wc -c <good) - 10)) good >cut
run solve -H lc --checkpoint cut one.txt
expect "truncated: refused, exit 3, named" 3 err "checkpoint cut is truncated"
check "truncated: left as it was" cmp -s cut <(head -c $(($(wc -c <good) - 10)) good)
sed '4s/^tables 4x4 0/tables 4x4 1/' good >digest
run solve -H lc --checkpoint digest one.txt
expect "damaged (digest): refused, exit 3, named" 3 err "checkpoint digest:[0-9]+: damaged"
# an end line whose digest matches the lines before it, but with the header missing
head -1 good >header
redigest header headless '^$' ''
run solve -H lc --checkpoint headless one.txt
expect "an end line before the header: refused, exit 3, named" 3 err "checkpoint headless:2: damaged"
check "a checkpoint without carried pieces is version 1" test "$(head -1 good)" = "npuzzle-checkpoint 1"
# a later version's file, whole (its digest made again): refused as such, not as damage
redigest good later '^npuzzle-checkpoint 1$' 'npuzzle-checkpoint 3'
run solve -H lc --checkpoint later one.txt
expect "a later version: refused, exit 3, named" 3 err "later:1: checkpoint version 3, which this npuzzle does not read"
redigest good lead0 '^npuzzle-checkpoint 1$' 'npuzzle-checkpoint 01'
run solve -H lc --checkpoint lead0 one.txt
expect "a version with a leading zero: not a checkpoint, exit 3" 3 err "lead0:1: not an npuzzle checkpoint"
echo "hello" >notck
run solve -H lc --checkpoint notck one.txt
expect "not a checkpoint: refused, exit 3, named" 3 err "notck:1: not an npuzzle checkpoint"
run solve -H md --checkpoint good one.txt
expect "other options: refused, exit 2, both shown" 2 err "checkpoint good was made with other options" err "heuristic=lc" err "heuristic=md"
run solve -H lc --checkpoint good k5.txt
expect "other boards: refused, exit 2, named" 2 err "checkpoint good was made for other boards"
# The 12-move machine of earlier versions (--prune fsm12) writes their options (prune=fsm), so
# that their checkpoints resume with it; the default machine's name differs.
rm -f err
"$NP" solve -H lc -j 2 -f json --progress --prune fsm12 --checkpoint ck12 one.txt >out 2>err &
pid=$!
wait_for "grep -qE 'bound $opt1 next; ' err 2>/dev/null"
kill -INT $pid
wait $pid
check "--prune fsm12: the options line of earlier versions (prune=fsm)" grep -q '^options .* prune=fsm$' ck12
run solve -H lc --checkpoint ck12 one.txt
expect "a 12-move machine's checkpoint with the default machine: refused, both shown" 2 \
    err "checkpoint ck12 was made with other options" err "prune=fsm14"
run solve -H lc -j 2 -f json --prune fsm12 --checkpoint ck12 one.txt
expect "--prune fsm12 resumes it" 0
"$NP" solve -H lc -j 1 -f json -q --prune fsm12 one.txt >ref12.json
same_answers "--prune fsm12, resumed: the answers of an uninterrupted run" ref12.json out
run verify -q --boards one.txt --results ref12.json
expect "--prune fsm12, uninterrupted: optimal (verify against Korf's length)" 0 out "1 ok"
check "--prune fsm12: other counts than the default machine" test "$(answers ref12.json)" != "$(answers ref1.json)"
# a well-formed checkpoint whose piece count does not fit the board (as another version of npuzzle
# could write): one piece more on its iter line, its digest redone
if grep -q '^iter 0 ' good; then
    pieces=$(sed -n 's/^iter 0 [0-9]* [1-9][0-9]* \([0-9]*\) .*/\1/p' good)
    redigest good notfit '^(iter 0 \d+ [1-9]\d* )\d+' "\\g<1>$((pieces + 1))"
    run solve -H lc -f json --checkpoint notfit one.txt
    if grep -q '^iter 0 [0-9]* 0 ' good; then
        skip "a state that does not fit: the checkpoint holds no pieces yet"
    else
        # the state is dropped (it was kept, and refused again at every run) and the board searched
        # from its start in the same run (it was left unanswered until the command ran again)
        expect "a state that does not fit the board: named, dropped, the board searched again (exit 0)" 0 \
            err "checkpoint notfit holds a search state .*searched again from its start"
        same_answers "  ... with the answer of an uninterrupted run" ref1.json out
        run solve -H lc -f json --checkpoint notfit one.txt
        expect "  ... the same command again: the answer from the file, nothing refused" 0
        check "  ... nothing said of a state" test "$(grep -c 'search state' err)" = 0
        same_answers "  ... the same answer" ref1.json out
    fi
else
    skip "a state that does not fit: the interrupted run left no iteration in its checkpoint"
fi
# The same in two board sizes (each size is a batch of its own): both states dropped, both boards
# searched again in the same run. The 5x5 board is a random walk from the goal, 54 moves away
# (25.3 M nodes with linear conflict; its last iteration about 0.3 s in a release build): a
# checkpoint holding both boards in progress is put together from two interrupted runs, one stopped
# in each board.
printf '0 1 5 3 4 7 6 2 13 8 10 12 19 18 9 11 17 23 21 22 16 15 20 14 24 # id=w54\n' >w5.txt
cat one.txt w5.txt >two.txt
"$NP" solve -H lc -j 2 -f json -q w5.txt >refw5.json
cat ref1.json refw5.json >reftwo.json
# interrupt_in FILE B: `solve --checkpoint FILE two.txt` stopped with SIGINT once FILE (written
# after every piece) shows board B in an iteration with its pieces chosen and a million nodes or
# more generated before it; true when the file left holds board B's iteration with its pieces
# chosen. A signal sent in an early iteration (a few hundred nodes) lands in a later one whose
# pieces are not chosen yet, or not one of them finished, and the stop leaves none (seen in CI on
# a loaded machine, every time); a long iteration leaves the signal time to land within it. A stop
# is tried up to five times all the same.
interrupt_in() {
    local f=$1 re="^iter $2 [0-9]+ [1-9][0-9]* [0-9]+ "
    for _ in 1 2 3 4 5; do
        rm -f "$f"
        "$NP" solve -H lc -j 2 --checkpoint-every 0 --checkpoint "$f" two.txt >/dev/null 2>&1 &
        pid=$!
        wait_for "grep -qE '${re}[0-9]+ [0-9]{7,} ' $f 2>/dev/null" && kill -INT $pid 2>/dev/null
        wait $pid
        grep -qE "$re" "$f" 2>/dev/null && return 0
    done
    return 1
}
if interrupt_in cka 0 && interrupt_in ckb 1 && grep -q '^done 0 ' ckb; then
    { grep -Ev '^(done|iter|piece) |^end ' ckb; grep -E '^(iter|piece) 0 ' cka; grep -E '^(iter|piece) 1 ' ckb; } >both0
    redigest both0 both '^(iter [01] \d+ [1-9]\d* )\d+' '\g<1>9999'
    run solve -H lc -j 2 -f json --checkpoint both two.txt
    expect "refused states in two sizes: both dropped, both boards searched again (exit 0)" 0 \
        err "checkpoint both holds a search state"
    check "  ... a note for each size" test "$(grep -c 'searched again from its start' err)" = 2
    same_answers "  ... the answers of uninterrupted runs" reftwo.json out
else
    skip "refused states in two sizes: the interrupted runs did not stop in both boards"
fi
# the digest is checked before the header is judged: an edited options line is damage, not
# another run's options
sed '2s/heuristic=lc/heuristic=md/' good >hdr
run solve -H lc --checkpoint hdr one.txt
expect "an options line edited, digest not redone: refused as damaged, exit 3" 3 err "checkpoint hdr:[0-9]+: damaged"
# text after a line's last field, its digest redone: a bad field, exit 3
if grep -q '^iter ' good; then
    redigest good trail '^(iter .*)$' '\g<1> junk'
    run solve -H lc --checkpoint trail one.txt
    expect "text after an iter line's last field: refused, exit 3, named" 3 err "checkpoint trail:[0-9]+: bad field line end"
else
    skip "text after the last field: the interrupted run left no iteration in its checkpoint"
fi
# one checkpoint, two runs: the second is refused while the first holds FILE.lock
if command -v flock >/dev/null; then
    cp good busy
    # -o: the lock is flock's own, not the sleep's, so that killing flock releases it
    flock -o busy.lock sleep 30 >/dev/null 2>&1 &
    holder=$!
    for _ in 1 2 3 4 5 6 7 8 9 10; do flock -n busy.lock true || break; sleep 0.2; done
    run solve -H lc --checkpoint busy one.txt
    expect "a checkpoint in use by another run: refused, exit 3, the lock named" 3 err "checkpoint busy is in use by another run \(it holds busy.lock\)"
    check "a checkpoint in use: left as it was" cmp -s busy good
    kill $holder
    wait $holder 2>/dev/null
    # (other options, so that the run ends at once: refused as foreign, no longer as busy)
    run solve -H md -f json --checkpoint busy one.txt
    expect "the lock released: the next run gets past it" 2 err "checkpoint busy was made with other options"
    check "the run at its end removes its lock" test ! -e busy.lock
else
    skip "a checkpoint in use: no flock(1) here"
fi
# A* boards side by side share --max-memory, so an A* checkpoint made on two threads resumes on two
# threads only, unless every board is answered and none reached a limit; two copies of an 8-puzzle
# board that A* solves in 1000K but not in 500K
hardest8_twice astar2.txt
rm -f cka
run solve -a astar -H md -j 2 --max-memory 1000K -f csv --checkpoint cka astar2.txt
expect "A* -j 2 --max-memory 1000K: 500K each, both stop at the limit" 1
cp out cka.csv
check "  ... the checkpoint records the threads" grep -q '^options .* jobs=2$' cka
grep -v '^done 1 ' cka >cka-left0 # board 1 left, the digest redone
redigest cka-left0 cka-left '^$' ''
run solve -a astar -H md -j 1 --max-memory 1000K -f csv --checkpoint cka-left astar2.txt
expect "  ... a board left, resumed with -j 1: refused, both option lines shown, exit 2" 2 \
    err "checkpoint cka-left was made with other options" err "jobs=2"
run solve -a astar -H md -j 1 --max-memory 1000K -f csv --checkpoint cka astar2.txt
expect "  ... finished, but its answers limits that -j 1 would not reach: refused, exit 2" 2 \
    err "checkpoint cka was made with other options" err "jobs=2"
# at -j 3 two boards share the memory as at -j 2 (each gets half): read, and a board left searched
run solve -a astar -H md -j 3 --max-memory 1000K -f csv --checkpoint cka-left astar2.txt
expect "  ... a board left, resumed with -j 3 (the same shares): searched, both stop at the limit" 1
check "  ... the answers of the run that made it" cmp -s <(cut -d, -f1-5 out) <(cut -d, -f1-5 cka.csv)
check "  ... the file now records the threads of this run" grep -q '^options .* jobs=3$' cka-left
# one board has the whole memory at any -j
head -n 1 astar2.txt >astar1.txt
rm -f cka1
run solve -a astar -H md -j 2 --max-memory 500K -f csv --checkpoint cka1 astar1.txt
expect "A* one board -j 2 --max-memory 500K: stops at the limit" 1
cp out cka1.csv
grep -v '^done 0 ' cka1 >cka1-left0
redigest cka1-left0 cka1-left '^$' ''
run solve -a astar -H md -j 1 --max-memory 500K -f csv --checkpoint cka1-left astar1.txt
expect "  ... left, resumed with -j 1 (one board: the same share): searched, the limit again" 1
check "  ... the answer of the run that made it" cmp -s <(cut -d, -f1-5 out) <(cut -d, -f1-5 cka1.csv)
# both solved (2000K: 1000K each): the answers any -j gives, so it is read at any -j
rm -f ckb
run solve -a astar -H md -j 2 --max-memory 2000K -f csv --checkpoint ckb astar2.txt
expect "A* -j 2 --max-memory 2000K: both solved" 0
cp out ckb.csv
cp ckb ckb-before
run solve -a astar -H md -j 1 --max-memory 2000K -f csv --checkpoint ckb astar2.txt
expect "  ... finished and solved, read with -j 1: its answers" 0
check "  ... the same answers as the run that made it" cmp -s out ckb.csv
check "  ... the file as it was (its options kept)" cmp -s ckb ckb-before
# jobs= only as the options' end: other options after it are other options
redigest ckb ckb-more '^(options .* jobs=2)$' '\g<1> weight=5'
run solve -a astar -H md -j 1 --max-memory 2000K -f csv --checkpoint ckb-more astar2.txt
expect "  ... a jobs= that is not the end of its options: refused, exit 2" 2 \
    err "checkpoint ckb-more was made with other options"
run solve -a astar -j 1 -f csv --checkpoint cka2 astar2.txt
expect "A* without -H: its checkpoint names the heuristic it uses (lc)" 0
check "  ... heuristic=lc, not auto" grep -q '^options algorithm=astar heuristic=lc ' cka2

# Checkpoints edited by hand (or by a bug) with their digest redone: the answers they hold are
# checked as npuzzle verify would, and lines they cannot hold are named.
rm -f fin
run solve -H lc -j 1 -f json --checkpoint fin b1.txt
expect "a finished checkpoint of Korf #5" 0
cp out fin.json
redigest fin fin-same '^x' 'x'
run solve -H lc -j 1 -f json --checkpoint fin-same b1.txt
expect "  ... its digest redone, unchanged: it still answers (the helper is right)" 0
same_answers "  ... with the same answer" fin.json out
# the moves reversed: as many, all letters U D L R, but not a way to the goal
rev=$(sed -n 's/^done 0 0 [0-9]* \([UDLR]*\) .*/\1/p' fin | python3 -c 'import sys; print(sys.stdin.read().strip()[::-1])')
redigest fin fin-rev '^(done 0 0 [0-9]+ )[UDLR]+' "\\g<1>$rev"
run solve -H lc -j 1 -f json --checkpoint fin-rev b1.txt
expect "  ... moves that do not reach the goal: refused, exit 3, named" 3 \
    err "checkpoint fin-rev: its answer for board 5 \(b1.txt:1\) does not replay to the goal"
redigest fin fin-unsolv '^done 0 0 [0-9]+ [UDLR]+' 'done 0 1 -1 -'
run solve -H lc -j 1 -f json --checkpoint fin-unsolv b1.txt
expect "  ... 'unsolvable' for a solvable board: refused, exit 3" 3 err "says unsolvable, but the board is solvable"
redigest fin fin-err '^done 0 0 ' 'done 0 3 '
run solve -H lc -j 1 -f json --checkpoint fin-err b1.txt
expect "  ... status 3 (an error is no answer to keep): refused, exit 3, the field named" 3 \
    err "checkpoint fin-err:5: bad field status"
redigest fin fin-kind '^tables' 'tablets'
run solve -H lc -j 1 -f json --checkpoint fin-kind b1.txt
expect "  ... an unknown line: refused, exit 3, the line kind named" 3 err "checkpoint fin-kind:4: bad field line kind"
cp fin fin-tail
echo "done 0 0 0 - 0 0 0 0 0 0" >>fin-tail
run solve -H lc -j 1 -f json --checkpoint fin-tail b1.txt
expect "  ... text after the end line: refused, exit 3" 3 err "checkpoint fin-tail:7: damaged \(text after its end line\)"

run solve -H lc --checkpoint "$T/no/such/dir/ck" one.txt
expect "unwritable: refused before searching, exit 3" 3 err "cannot create checkpoint"
run solve -H lc --checkpoint-every -1 --checkpoint ck one.txt
expect "bad --checkpoint-every: exit 2" 2 err "checkpoint-every"
run solve -H lc --checkpoint-every 5 one.txt
expect "--checkpoint-every without --checkpoint: refused, exit 2" 2 err "give --checkpoint too"
run solve -H lc --checkpoint "" one.txt
expect "--checkpoint '': a usage error, exit 2" 2 err "needs a file name"
# Only a regular file is a checkpoint: a FIFO blocked the run's read, a directory was called
# truncated (a device would have been replaced by the run's rename).
mkdir -p ckdir
mkfifo ckfifo
for what in ckdir ckfifo; do
    LAST="npuzzle solve -H lc --checkpoint $what one.txt"
    timeout 60 "$NP" solve -H lc --checkpoint "$what" one.txt </dev/null >out 2>err
    rc=$?
    expect "--checkpoint $what: refused by name, exit 3" 3 err "checkpoint $what is not a regular file"
done
# A board stopped by --timeout is finished with status limit: a run with another time limit must
# not take that answer for its own (the limit is one of the options a checkpoint is made with).
rm -f ckt
run solve -H md -j 1 -f json --timeout 0.01 --checkpoint ckt one.txt
expect "--timeout 0.01: the board stops at its limit, exit 1" 1 out '"status":"limit"'
run solve -H md -j 1 -f json --timeout 0.01 --checkpoint ckt one.txt
expect "  ... the same command answers it again from the checkpoint" 1 out '"status":"limit"'
run solve -H md -j 1 -f json --timeout 5 --checkpoint ckt one.txt
expect "  ... another --timeout: refused, both shown, exit 2" 2 \
    err "checkpoint ckt was made with other options" err "timeout=0.01" err "timeout=5"
run solve -H md -j 1 -f json --checkpoint ckt one.txt
expect "  ... no --timeout: refused, exit 2" 2 err "checkpoint ckt was made with other options"
check "no temporary checkpoint file left by a run that ended" test ! -e ck.tmp
# --timeout counts the seconds of earlier runs, as --max-nodes counts their nodes: a board stopped
# at 0.7 s of a 1 s limit and resumed gets the 0.3 s left, not another second (it reported
# about 1.7 s before). Korf #14 with Manhattan distance needs about 10 s, sanitizers or not.
grep -E "# id=14 opt=" "$DATA/korf100.txt" >long.txt
rm -f ckl
"$NP" solve -H md -j 1 -f json --timeout 1 --checkpoint ckl long.txt >out 2>err &
pid=$!
sleep 0.7
kill -INT $pid
wait $pid
rc=$?
LAST="npuzzle solve -H md -j 1 -f json --timeout 1 --checkpoint ckl long.txt, SIGINT at 0.7 s"
if [ $rc -ne 130 ]; then
    skip "--timeout over a resume: the first run was not interrupted (exit $rc)"
else
    run solve -H md -j 1 -f json --timeout 1 --checkpoint ckl long.txt
    secs=$(grep -o '"seconds":[0-9.]*' out | cut -d: -f2)
    check "--timeout 1 over a resume: status limit, at most 1.35 s in all (earlier runs counted)" \
        eval 'grep -q "\"status\":\"limit\"" out && [ "$rc" = 1 ] &&
            awk -v s="${secs:-9}" "BEGIN { exit !(s < 1.35) }"'
    echo "     (the board's seconds: $secs)"
fi
# What stands at FILE.tmp is replaced, never written through: a symbolic link planted there (by
# another user of a shared directory) must not turn the checkpoint's writes on its target.
rm -f cks cks.tmp
echo precious >victim
ln -s "$T/victim" cks.tmp
run solve -H md -j 1 -f json --checkpoint cks one.txt
check "a symbolic link at FILE.tmp: the run ends (exit 0) and writes its checkpoint" \
    test "$rc" = 0 -a -s cks
check "  ... the link's target is untouched" test "$(cat victim)" = precious

# A checkpoint named through a symbolic link is written where the link leads (the rename replaced
# the link with a file of its own, and the file the user named was never written), also when the
# link's target is yet to be; a run under the target's own name then answers from it.
# (here a chain: lk.ckpt -> lk2.ckpt -> lk/real.ckpt; the first fix followed one link)
rm -rf lk lk.ckpt lk2.ckpt && mkdir lk
ln -s lk2.ckpt lk.ckpt
ln -s lk/../lk/real.ckpt lk2.ckpt
run solve -H md -j 1 -f json --checkpoint lk.ckpt one.txt
if [ "$rc" = 0 ] && [ -L lk.ckpt ] && [ -L lk2.ckpt ] && grep -q "^done" lk/real.ckpt; then
    pass "--checkpoint through a symbolic link: the link stays, its target holds the answer"
else
    fail "--checkpoint through a symbolic link: the link stays, its target holds the answer"
fi
run solve -H md -j 1 --checkpoint lk/real.ckpt one.txt
expect "  ... the same command under the target's name answers from it" 0 out "(1 boards resumed)"

# A write that fails while searching (here a directory at FILE.tmp; a full disk alike) is tried
# again while the search goes on, and once it passes the run is as if it had not failed: before,
# the first failure ended the writes for the rest of the run (a kill then lost everything since)
# and the run exited 3 though its last write had passed. The run is stopped (SIGSTOP) while the
# directory comes and goes, so that the steps do not depend on the machine's speed.
rm -rf ckw ckw.tmp
"$NP" solve -H md -j 1 -f json --checkpoint ckw --checkpoint-every 0 long.txt >out 2>err &
pid=$!
# block: with the run stopped, put a directory at ckw.tmp (the run may be between its creation of
# the file and its rename: let it on a little until the name is free)
block() {
    local tries=0
    kill -STOP $pid
    until mkdir ckw.tmp 2>/dev/null; do
        kill -CONT $pid
        sleep 0.001
        kill -STOP $pid
        tries=$((tries + 1))
        [ $tries -lt 5000 ] || { kill -CONT $pid; return 1; }
    done
    kill -CONT $pid
}
LAST="npuzzle solve -H md -j 1 --checkpoint ckw --checkpoint-every 0 long.txt, ckw.tmp blocked"
if wait_for 'grep -q "^iter" ckw 2>/dev/null' && block &&
    wait_for 'grep -q "ckw.tmp" err'; then
    kill -STOP $pid
    rmdir ckw.tmp
    before=$(cksum <ckw)
    kill -CONT $pid
    # a write that changed the file while the board was still being searched (no "done" line);
    # then the run is stopped: it ends as one whose writes all passed (130, not 3)
    changed() { cp ckw snap && [ "$(cksum <snap)" != "$before" ]; }
    wait_for changed
    again=$?
    kill -INT $pid 2>/dev/null
    wait $pid
    rc=$?
    if [ $again = 0 ] && grep -q "^iter" snap && ! grep -q "^done" snap; then
        pass "a checkpoint write that failed is tried again while the run goes on"
    else
        fail "a checkpoint write that failed is tried again while the run goes on"
    fi
    expect "  ... said once it passes; SIGINT then ends the run as any (exit 130, written)" 130 \
        err "checkpoint ckw written again" err "interrupted; checkpoint ckw written"
else
    kill -CONT $pid 2>/dev/null
    wait $pid
    skip "a failed checkpoint write: the run ended before the steps (exit $?)"
fi
rm -rf ckw.tmp

# A resumed run shares the threads as its first run did: with four boards on -j 2 each had one
# thread; resumed with only the fourth left, that board kept one thread, where before it took
# both and stopped at --max-nodes with another count (200,065,536 against 200,000,004).
{ head -n 3 k5.txt; grep -E "# id=14 opt=" "$DATA/korf100.txt"; } >k4.txt
rm -f ckm ckr
"$NP" solve -H md -j 2 -f json --max-nodes 100000000 --checkpoint ckr k4.txt >ref_limit.json 2>/dev/null
"$NP" solve -H md -j 2 -f json --max-nodes 100000000 --checkpoint ckm --checkpoint-every 0 \
    k4.txt >out 2>err &
pid=$!
# shellcheck disable=SC2016 # expanded by wait_for's eval
wait_for 'n=$(grep -c "^done" ckm 2>/dev/null); [ "${n:-0}" -ge 3 ]'
kill -INT $pid 2>/dev/null
wait $pid
rc=$?
LAST="npuzzle solve -H md -j 2 --max-nodes 100000000 --checkpoint ckm k4.txt, SIGINT after 3 boards"
if [ $rc -ne 130 ]; then
    skip "threads over a resume: the first run ended before the signal (exit $rc)"
else
    run solve -H md -j 2 -f json --max-nodes 100000000 --checkpoint ckm --checkpoint-every 0 k4.txt
    same_answers "threads over a resume: the board left stops at --max-nodes with the count of an uninterrupted run" \
        ref_limit.json out
fi

# --max-nodes N solves a board whose serial search needs N nodes, with --checkpoint too (which
# searches by pieces on one thread as well): the first moves' nodes count as the serial search
# meets them (counted all at once, those after the solution's piece stopped the search 127 nodes
# short of it: a limit); with fewer it stops where the serial search does, with its counts (it
# went on past N by the first moves' nodes, up to the piece's first look at the limit).
sed -n 4p k5.txt >k1.txt # Korf #1: 5,731,210 nodes with linear conflict
"$NP" solve -H lc -j 1 -f csv -q k1.txt >ref.csv
need=$(tail -n 1 ref.csv | cut -d, -f8)
for lim in "$need" $((need - 1)) $((need / 2)); do
    "$NP" solve -H lc -j 1 -f csv -q --max-nodes "$lim" k1.txt >ref.csv
    rm -f ckn
    run solve -H lc -j 1 -f csv -q --max-nodes "$lim" --checkpoint ckn k1.txt
    want=$(tail -n 1 ref.csv | cut -d, -f3,7,8)
    got=$(tail -n 1 out | cut -d, -f3,7,8)
    if [ "$got" = "$want" ] && { [ "$lim" != "$need" ] || [ "${got%%,*}" = solved ]; }; then
        pass "--max-nodes $lim with --checkpoint: the status and counts of the serial search ($got)"
    else
        fail "--max-nodes $lim with --checkpoint: $got, the serial search $want"
    fi
done

# After SIGINT the boards left are no limit: the one searched is shown interrupted, those not begun
# not at all (each was reported "limit, length -1"). Korf #1 and #11 are begun after #5 ends.
rm -f cki
"$NP" solve -H md -j 1 --progress --checkpoint cki k5.txt >out 2>err &
pid=$!
wait_for 'grep -q "^\[1/5\]" err'
kill -INT $pid 2>/dev/null
wait $pid
rc=$?
LAST="npuzzle solve -H md -j 1 --progress --checkpoint cki k5.txt, SIGINT after the first board"
if [ $rc -ne 130 ]; then
    skip "--progress after SIGINT: the run ended before the signal (exit $rc)"
else
    # (the board in progress is shown interrupted, unless the signal came between two boards)
    n=$(grep -c ": interrupted, " err)
    check "--progress after SIGINT: no board reported as a limit, at most one interrupted" \
        eval "! grep -q ': limit' err && [ $n -le 1 ]"
fi

# within an iteration, the pieces searched so far: with --progress-every 0 a line per finished piece,
# counted one by one up to the iteration's number of pieces (a line while pieces run repeats the
# count), the answers unchanged
pieces_in_order() {
    awk '/ pieces searched;/ {
        split($0, w, " "); b = w[4]; k = w[5]; m = w[7]; sub(/:/, "", b)
        if (b != cb) { cb = b; ck = 0 }
        if (k < ck || k > ck + 1 || k > m) bad = 1
        if (k == m) full = 1
        ck = k; n++ }
        END { exit !(n > 0 && !bad && full) }' "$1"
}
run solve -H lc -j 2 -f json --progress --progress-every 0 one.txt
expect "--progress-every 0: a line per finished piece" 0 \
    err "^npuzzle solve: bound [0-9]+: [0-9]+ of [0-9]+ pieces searched; [0-9]+ nodes generated, [0-9.]+ M nodes/s, [0-9.]+ s$"
cp out pieces.json
same_answers "--progress-every 0: the moves and counts of the run without it" ref1.json pieces.json
check "--progress-every 0: within each bound the pieces counted 1, 2, ... up to their number" \
    pieces_in_order err
run solve -H lc -j 2 -f json --progress --progress-every 0 --checkpoint ckp one.txt
check "--progress-every 0 with --checkpoint: the pieces counted the same way" pieces_in_order err
run solve -H lc -j 1 --progress --progress-every 0 one.txt
check "-j 1 without --checkpoint: no pieces lines (the search is not split)" \
    test "$(grep -c 'pieces searched' err)" -eq 0
# while pieces run and none ends, lines still come (with --progress-every 0, ten a second), the count
# of finished pieces repeated: a huge piece runs for hours on the hardest boards. Manhattan distance
# on #11: 56.6 M nodes with the pruning machine, 0.3 s on two threads in a release build (too fast to
# tell on a fast machine: then skipped; the sanitizers' build always takes longer). With
# --checkpoint, the rate of the lines while pieces run is checked below, in a resumed run.
run solve -H md -j 2 -f json --progress --progress-every 0 one.txt
secs=$(sed -nE 's/.*"seconds":([0-9.]+).*/\1/p' out)
repeats=$(awk '/ pieces searched;/ { split($0, w, " ")
    if (w[4] == b && w[5] == k) r++; b = w[4]; k = w[5] } END { print r + 0 }' err)
LAST="$LAST ($secs s, $repeats lines repeating the count)"
if awk -v s="$secs" 'BEGIN { exit !(s < 0.6) }'; then
    skip "--progress-every 0 while pieces run: the run took $secs s, too short to tell"
else
    check "--progress-every 0 while pieces run: lines that repeat the count" test "$repeats" -ge 1
    check "--progress-every 0 while pieces run: the counts in order" pieces_in_order err
fi
# a resumed run's rate is its own, not counting the nodes of the run before: on one thread (a
# checkpoint splits it too), stopped once two thirds of the last iteration's pieces are searched,
# then resumed, every pieces line's rate times its time stays within the nodes that were left to
# generate (the figures rounded to a tenth; told apart only in a resumed run of a fifth of a second
# or more: the sanitizers' build)
rm -f ckr
opt=$(sed -nE 's/.*opt=([0-9]+).*/\1/p' one.txt)
"$NP" solve -H md -j 1 -f json --progress --progress-every 0 --checkpoint ckr one.txt >out 2>err1 &
pid=$!
for _ in $(seq 1 6000); do
    awk -v b="$opt:" '$3 == "bound" && $4 == b && $8 == "pieces" && $5 * 3 >= $7 * 2 { f = 1 }
        END { exit !f }' err1 && break
    kill -0 $pid 2>/dev/null || break # ended first: no need to wait on (then skipped below)
    sleep 0.01
done
kill -INT $pid
wait $pid
stop_rc=$?
resumed=$(grep 'pieces searched' err1 | tail -1 | awk '{ print $10 }')
run solve -H md -j 1 -f json --progress --progress-every 0 --checkpoint ckr one.txt
# (nodes_extra is left out of the json when 0: one thread may do no work past the serial count)
left=$(sed -nE 's/.*"nodes_generated":([0-9]+)(,"nodes_extra":([0-9]+))?.*/\1 \3/p' out |
    awk -v r="${resumed:-0}" '{ print $1 + $2 - r }')
took=$(grep 'pieces searched' err | tail -1 | awk '{ print $16 }')
LAST="$LAST (stopped after $resumed nodes, $left left, ${took:-no} s)"
if [ $stop_rc -eq 0 ] || [ -z "$resumed" ] || [ -z "$took" ] ||
    awk -v t="$took" 'BEGIN { exit !(t < 0.2) }'; then
    skip "--progress-every 0, resumed: the rate (first run's exit $stop_rc, resumed run's pieces lines up to ${took:-none} s: too short to tell)"
else
    check "--progress-every 0, resumed: the rate counts this run's nodes only" \
        awk -v left="$left" '/ pieces searched;/ { rate = $13 * 1e6; t = $16
            if (rate * t > 1.2 * left + 0.06 * rate + 0.06e6 * t) bad = 1 } END { exit bad }' err
fi
# stop_when AWK ARGS...: npuzzle solve ARGS (out, err1), sent SIGINT once the awk program AWK holds
# for the checkpoint ckc (b: the optimal length), or the run ended first; $stopped: its exit status
stop_when() {
    local cond=$1 pid
    shift
    "$NP" solve "$@" >out 2>err1 &
    pid=$!
    for _ in $(seq 1 6000); do
        awk -v b="$opt" "$cond" ckc 2>/dev/null && break
        kill -0 $pid 2>/dev/null || break
        sleep 0.01
    done
    kill -INT $pid 2>/dev/null
    wait $pid
    stopped=$?
}
# cut again: a run stopped in the last iteration, then resumed asking for pieces of 10,000 nodes
# (about 800 for that iteration, against 128 or so on 2 threads): the iteration's list is cut again,
# deeper, the finished pieces carried over (a ninth field on their lines: how many pieces each
# stands for); stopped once the checkpoint holds them, and resumed without the option, the answers
# and counts are the uninterrupted run's
rm -f ckc
stop_when '$1 == "iter" && $3 == b { i = 1 } $1 == "piece" && i { n++ } END { exit !(n >= 3) }' \
    -H lc -j 2 -f json --checkpoint ckc --checkpoint-every 0 one.txt
stop_rc=$stopped
before=$(awk '$1 == "iter" { print $4 }' ckc 2>/dev/null)
stop_when '$1 == "piece" && NF == 9 { f = 1 } END { exit !f }' \
    -H lc -j 2 -f json --checkpoint ckc --checkpoint-every 0 --piece-nodes 10000 one.txt
cut_rc=$stopped
after=$(awk '$1 == "iter" { print $4 }' ckc 2>/dev/null)
carried=$(awk '$1 == "piece" && NF == 9 { n++; s += $9 } END { print n + 0, s + 0 }' ckc 2>/dev/null)
LAST="$NP solve ... --checkpoint ckc one.txt, stopped in bound $opt ($before pieces), then with --piece-nodes 10000 ($after pieces; carried over: ${carried% *}, standing for ${carried#* })"
if [ $stop_rc -ne 130 ] || [ $cut_rc -ne 130 ]; then
    skip "cut again: a run ended before its signal (exits $stop_rc, $cut_rc)"
else
    check "cut again: the list has more pieces, some carried over" \
        test "${after:-0}" -gt "${before:-0}" -a "${carried% *}" -gt 0
    check "cut again: a checkpoint with carried pieces is version 2" \
        test "$(head -1 ckc)" = "npuzzle-checkpoint 2"
    # the versions that first wrote SPAN fields called the file version 1: it still resumes
    redigest ckc ckc1 '^npuzzle-checkpoint 2$' 'npuzzle-checkpoint 1'
    run solve -H lc -j 2 -f json --checkpoint ckc1 one.txt
    expect "cut again, version 1 with SPAN fields: resumed, the run finishes" 0
    same_answers "cut again, version 1 with SPAN fields: the uninterrupted answers and counts" ref1.json out
    run solve -H lc -j 2 -f json --checkpoint ckc one.txt
    expect "cut again, resumed: the run finishes" 0
    same_answers "cut again, resumed: the uninterrupted answers and counts" ref1.json out
fi
# cut again at a stop: a SIGINT that cuts a piece short after 4 times --piece-nodes or more cuts
# the list again, deeper: the checkpoint then holds the new list with the finished pieces carried
# over (a ninth field), and no iteration line is printed for it; resumed, the answers and counts are
# the uninterrupted run's. On one thread the pieces go in order, and --progress-every 0 prints a
# line as each ends, so a first run gives each piece's nodes (4,096 asked for: the largest of the
# last iteration some 230,000); the signal then goes as the line before the largest comes. The
# search looks at a stop every 65,536 nodes, at points fixed on one thread, so it may see it too
# early in that piece (before 16,384 nodes), or the signal may come after the piece's end (the list
# kept: no carried pieces; about one try in two): tried again on the next largest, up to eight.
recut_args=(-H lc -j 1 -f json --progress --progress-every 0 --checkpoint ckq --piece-nodes 4096)
rm -f ckq
"$NP" solve "${recut_args[@]}" one.txt >out 2>err1
# the pieces of bound $opt by their nodes, the largest first
mapfile -t recut_targets < <(awk -v b="bound $opt:" 'index($0, b) && $6 == "of" { x = $5 + 0; v = $10 + 0
    if (x != px) { if (px != "") print v - prev, x - 1; px = x; prev = v } }' err1 | sort -k1,1nr | head -n 8 | cut -d' ' -f2)
recut_tries=0
recut_rc=
recut_carried=0
recut_at=
while [ $recut_tries -lt ${#recut_targets[@]} ]; do
    recut_at=${recut_targets[$recut_tries]}
    recut_tries=$((recut_tries + 1))
    rm -f ckq err1 fifo
    mkfifo fifo
    "$NP" solve "${recut_args[@]}" one.txt >out 2>fifo &
    pid=$!
    # (awk reads on to the end, so that the run never writes to a pipe without a reader; mawk,
    # Debian's awk, takes each line as it comes only with -W interactive, which gawk ignores)
    awk -W interactive -v line="bound $opt: $recut_at of " -v pid=$pid '{ print > "err1" }
        !sent && index($0, line) { system("kill -INT " pid); sent = 1 }' fifo 2>/dev/null
    wait $pid
    recut_rc=$?
    recut_carried=$(awk -v b="$opt" '$1 == "iter" && $3 == b { i = 1 } $1 == "piece" && i && NF == 9 { n++ }
        END { print n + 0 }' ckq 2>/dev/null)
    [ "$recut_rc" -eq 130 ] && [ "${recut_carried:-0}" -gt 0 ] && break
done
LAST="$NP solve -H lc -j 1 --piece-nodes 4096 --checkpoint ckq one.txt, SIGINT as piece ${recut_at:-?} of bound $opt begins (try $recut_tries, exit ${recut_rc:-?}): ${recut_carried:-0} pieces carried over"
if [ ${#recut_targets[@]} -lt 8 ]; then
    check "cut again at a stop: the pieces' lines of bound $opt (--progress-every 0)" false
elif [ "$recut_rc" -ne 130 ] || [ "${recut_carried:-0}" -eq 0 ]; then
    skip "cut again at a stop: no stop in $recut_tries tries cut one of the largest pieces short after 16,384 nodes or more"
else
    # shellcheck disable=SC2016 # awk's fields
    check "cut again at a stop (try $recut_tries): every piece of the list is one carried over (a ninth field)" \
        awk '$1 == "piece" && NF != 9 { bad = 1 } END { exit bad }' ckq
    check "cut again at a stop: no iteration line for it" \
        test "$(grep -c "bound $opt next" err1)" -eq 1
    run solve -H lc -j 2 -f json --checkpoint ckq one.txt
    expect "cut again at a stop, resumed: the run finishes" 0
    same_answers "cut again at a stop, resumed: the uninterrupted answers and counts" ref1.json out
fi
rm -f fifo
# stopped halfway and resumed: the pieces of the earlier run are counted on (a signal that comes
# after the search ended, while the answer and the checkpoint are written, still exits 130 with the
# answer in the checkpoint: the resumed run then searches nothing and has no pieces lines)
rm -f ckp err1
"$NP" solve -H lc -j 2 -f json --progress --progress-every 0 --checkpoint ckp one.txt >out 2>err1 &
pid=$!
wait_for "grep -qE 'bound $opt1: [0-9]+ of ' err1 2>/dev/null"
kill -INT $pid
wait $pid
rc=$?
last=$(grep 'pieces searched' err1 | tail -1 | awk '{ sub(/:/, "", $4); print $4, $5 }')
if [ $rc -eq 0 ] || [ -z "$last" ] || grep -q '^done ' ckp; then
    skip "--progress-every 0, resumed: the first run answered, or met no pieces, before the signal"
else
    run solve -H lc -j 2 -f json --progress --progress-every 0 --checkpoint ckp one.txt
    expect "--progress-every 0, resumed: the run finishes" 0
    same_answers "--progress-every 0, resumed: the uninterrupted answers" ref1.json out
    first=$(grep 'pieces searched' err | head -1 | awk '{ sub(/:/, "", $4); print $4, $5 }')
    LAST="$LAST (stopped at bound/pieces '$last', resumed at '$first')"
    check "--progress-every 0, resumed: the count goes on from the stopped run's" \
        awk -v a="$last" -v b="$first" 'BEGIN { split(a, x, " "); split(b, y, " ")
            exit !(y[1] > x[1] || (y[1] == x[1] && y[2] >= x[2])) }'
fi
run solve -H lc -j 2 --progress --progress-every -1 one.txt
expect "--progress-every -1: refused, exit 2" 2 err "bad value for --progress-every: '-1'"
run solve -H lc -j 2 --piece-nodes 0 one.txt
expect "--piece-nodes 0: refused, exit 2" 2 err "--piece-nodes must be at least 1, not '0'"
run solve -H lc -j 2 --progress k5.txt
check "--progress on several boards: no iteration lines" test "$(grep -c 'bound [0-9]* next' err)" -eq 0
run solve -H lc -j 2 --batch one-at-a-time --progress k5.txt
expect "--progress --batch one-at-a-time: each board's iterations, named" 0 \
    err "^npuzzle solve: \[1/5\] [^ ]+: bound [0-9]+ next; [0-9]+ nodes generated" \
    err "^npuzzle solve: \[5/5\] [^ ]+: bound [0-9]+ next; [0-9]+ nodes generated"

# ---- the report of a results file -------------------------------------------------------------
REPORT="$HERE/../scripts/report"
LAST="scripts/report ref5.json --out rep"
"$REPORT" ref5.json --out rep >out 2>err
rc=$?
expect "report: exit 0" 0 out "report.md"
check "report: a table row per instance, with Korf 1985's count and the ratio" \
    test "$(grep -cE '^\| [0-9]+ \| [0-9]+ \| [0-9]+ \| [0-9,]+ \| [0-9,]+ \| [0-9.]+ \|' rep/report.md)" -eq 5
check "report: instance 1's published count (Korf 1985: 276,361,933)" grep -q '| 276,361,933 |' rep/report.md
check "report: the machine stated" grep -q '^- machine:' rep/report.md
check "report: nodes.png is a PNG, not empty" test -s rep/nodes.png -a "$(head -c 4 rep/nodes.png | tail -c 3)" = PNG
check "report: time.png is a PNG, not empty" test -s rep/time.png -a "$(head -c 4 rep/time.png | tail -c 3)" = PNG
# the PDB value histogram of two small tables
"$NP" gen --partition 8:4-4 --pdb-dir pdb8 -q >/dev/null 2>&1
LAST="scripts/plot-pdb hist.png pdb8/*.pdb"
"$HERE/../scripts/plot-pdb" --build "$(dirname "$(dirname "$NP")")" hist.png pdb8/*.pdb >out 2>err
rc=$?
expect "plot-pdb: exit 0" 0 out "plot-pdb: hist.png"
check "plot-pdb: hist.png is a PNG, not empty" test -s hist.png -a "$(head -c 4 hist.png | tail -c 3)" = PNG
echo '{"id":"1",' >broken.json
"$REPORT" broken.json --out rep2 >out 2>err
rc=$?
LAST="scripts/report broken.json"
expect "report: a broken results file is refused by file and line" 2 err "broken.json:1: not a json record"

cli_summary
