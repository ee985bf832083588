#!/usr/bin/env bash
# cli_mpi.sh - npuzzle-mpi under mpirun (Open MPI), 3 ranks oversubscribed on this machine:
# 20 of Korf's 100 with 15:6-6-3 (board by board) and one hard board (piece by piece) give the
# answers and nodes_generated of `npuzzle solve -j 1`; a worker rank killed mid-run ends the run
# with a non-zero exit and a message, and the same command resumes from the checkpoint to the same
# output, for one board split into pieces and for a batch (whose boards in flight on the workers
# are checkpointed by pieces); --timeout limits the whole run; a rank whose tables differ (one file written with 8-bit entries) is refused by rank and
# file. Only in builds with MPI, and not under the sanitizers (Open MPI's own allocations there).
# usage: cli_mpi.sh NPUZZLE_BINARY NPUZZLE_MPI_BINARY
set -u
. "$(dirname "$0")/cli_lib.sh"
MPI_BIN=${2:-}
cli_start "$1"

if ldd "$NP" 2>/dev/null | grep -q 'libasan\|libubsan'; then
    skip "a sanitizer build: Open MPI's allocations are not ours; the release build runs this test"
    cli_summary
    exit # 77 (skipped) when no check ran
fi
if [ ! -x "$MPI_BIN" ] || ! command -v mpirun >/dev/null; then
    skip "no npuzzle-mpi or mpirun (meson -Dmpi=enabled with libopenmpi-dev, openmpi-bin)"
    cli_summary
    exit # 77 (skipped) when no check ran
fi
# Open MPI refuses root unless told; 3 ranks on fewer cores need --oversubscribe.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
MPIRUN=(mpirun --oversubscribe -np 3)

# mpi ARGS...: npuzzle-mpi on 3 ranks, stdout in out, stderr in err, status in $rc.
mpi() {
    LAST="mpirun -np 3 npuzzle-mpi $*"
    timeout 240 "${MPIRUN[@]}" "$MPI_BIN" "$@" </dev/null >out 2>err
    rc=$?
}
# same A B: the json answers of A and B, board for board, seconds and nodes_extra aside
same() { cmp -s <(sed -E 's/"(seconds|nodes_extra)":[0-9.e+-]+,?//g' "$1" | sort) \
    <(sed -E 's/"(seconds|nodes_extra)":[0-9.e+-]+,?//g' "$2" | sort); }

# signal_rank RANK SIGNAL SECONDS ARGS...: npuzzle-mpi ARGS on 3 ranks (stdout in out, stderr in
# err), rank RANK sent SIGNAL SECONDS after it appears, or, when $READY names a command, as soon
# as that command succeeds after it appears (polled, for 60 s at most: a fixed delay lets a loaded
# machine reach less); $killed: its pid (empty if never found), $rc: the run's exit status, $took:
# the run's wall time from the signal (whole seconds). ARGS[0] names the run's processes for pgrep.
signal_rank() {
    local rank=$1 sig=$2 after=$3
    shift 3
    LAST="mpirun -np 3 npuzzle-mpi $* (SIG$sig to rank $rank)"
    timeout 240 "${MPIRUN[@]}" "$MPI_BIN" "$@" </dev/null >out 2>err &
    local launcher=$! t0=
    killed=
    for _ in $(seq 100); do
        sleep 0.05
        for p in $(pgrep -f "npuzzle-mpi $1" 2>/dev/null); do
            if tr '\0' '\n' <"/proc/$p/environ" 2>/dev/null | grep -qx "OMPI_COMM_WORLD_RANK=$rank"; then
                if [ -n "${READY:-}" ]; then
                    for _ in $(seq 1200); do
                        "$READY" && break
                        kill -0 "$p" 2>/dev/null || break # the run ended first
                        sleep 0.05
                    done
                else
                    sleep "$after"
                fi
                t0=$(date +%s)
                kill -s "$sig" "$p" && killed=$p
                break 2
            fi
        done
    done
    wait "$launcher"
    rc=$?
    took=$(($(date +%s) - ${t0:-0}))
}
# kill_rank1 SECONDS ARGS...: rank 1 killed with SIGKILL (signal_rank)
kill_rank1() {
    signal_rank 1 KILL "$@"
}

run gen --partition 15:6-6-3 -j 2 --pdb-dir "$T/pdb" --quiet
expect "15:6-6-3 built" 0
P=(--partition 15:6-6-3 --pdb-dir "$T/pdb")

# ---- a batch, board by board ---------------------------------------------------------
grep -E "# id=([1-9]|1[0-9]|20) opt=" "$DATA/korf100.txt" >k20.txt
check "20 boards of Korf's 100" test "$(grep -c . k20.txt)" -eq 20
run solve "${P[@]}" -j 1 -f json --check k20.txt
cp out one.json
expect "npuzzle solve -j 1 on Korf #1..20" 0
mpi "${P[@]}" -j 1 -f json --check k20.txt
cp out mpi.json
expect "mpirun -np 3 npuzzle-mpi on Korf #1..20: optimal" 0
check "the same answers and nodes_generated as -j 1, board for board" same mpi.json one.json
head -n 5 k20.txt >k5.txt
mpi "${P[@]}" -j 2 --batch one-at-a-time --progress -f json --check k5.txt
expect "npuzzle-mpi --batch one-at-a-time: optimal, with a note that it is ignored" 0 \
    err "--batch one-at-a-time is ignored"
check "  ... and no iteration lines from boards solved side by side" \
    test "$(grep -c 'bound [0-9]* next' err)" -eq 0

# ---- one hard board, piece by piece --------------------------------------------------
grep -E "# id=88 opt=" "$DATA/korf100.txt" >k88.txt
run solve -H lc -j 1 -f json --check k88.txt
cp out one88.json
expect "npuzzle solve -j 1 -H lc Korf #88" 0
mpi -H lc -j 1 -f json --check k88.txt
cp out mpi88.json
expect "mpirun -np 3: Korf #88 split into pieces over the ranks: optimal" 0
check "the same moves and nodes_generated as -j 1" same mpi88.json one88.json
check "the other ranks did work beyond the serial count (pieces went out)" grep -q '"nodes_extra"' mpi88.json

# ---- a worker killed mid-run; the checkpoint resumes -----------------------------------
# Korf #88 (about 2 s): rank 1 is killed once the checkpoint holds a finished piece (the search
# under way; a fixed delay could kill it on a loaded machine before rank 0 had left MPI_Init and
# written any checkpoint), then the same command goes on.
ck=(-H lc -j 1 -f json --check --checkpoint ck --checkpoint-every 0 k88.txt)
has_piece() { grep -q '^piece ' "$1" 2>/dev/null; }
ck_searching() { has_piece ck; }
READY=ck_searching kill_rank1 0 "${ck[@]}"
check "a worker rank found and killed" test -n "$killed"
check "the run ends with a non-zero exit" test "$rc" -ne 0
check "and a message (mpirun names the rank that died)" grep -Eqi "rank|process|signal|killed" err
check "the checkpoint is whole (its end line)" grep -q '^end ' ck
mpi "${ck[@]}"
cp out resumed.json
expect "the same command resumes" 0
check "resumed: the same moves and counts as the uninterrupted -j 1 run" same resumed.json one88.json

# ---- a limit of the run, not of each piece --------------------------------------------
# Korf #88 with lc takes seconds; --timeout 0.3 stops the whole run (rank 0 tells the workers
# to stop their pieces), not each piece after 0.3 s of its own.
mpi -H lc -j 1 -f json --timeout 0.3 k88.txt
expect "mpirun -np 3 --timeout 0.3 on Korf #88: a limit reached (exit 1)" 1
check "the run's time limit stopped it: status limit" grep -q '"status":"limit"' out

# ---- a batch with a checkpoint: a worker killed; the boards in flight resume ----------
# Four hard boards with lc (a second or more each), one per rank and one more: the workers send
# their boards' finished pieces to rank 0, which checkpoints them as its own.
for i in 60 82 49 66; do grep -E "# id=$i opt=" "$DATA/korf100.txt"; done >hard4.txt
run solve -H lc -j 1 -f json --check hard4.txt
cp out one4.json
expect "npuzzle solve -j 1 on 4 hard boards" 0
ck4=(-H lc -j 1 -f json --check --checkpoint ck4 --checkpoint-every 0 hard4.txt)
pieces_of_two_boards() { [ "$(awk '$1 == "piece" { print $2 }' ck4 2>/dev/null | sort -u | wc -l)" -ge 2 ]; }
READY=pieces_of_two_boards kill_rank1 0 "${ck4[@]}"
check "batch: a worker rank found and killed" test -n "$killed"
check "batch: the run ends with a non-zero exit" test "$rc" -ne 0
check "batch: the checkpoint is whole" grep -q '^end ' ck4
inflight=$(awk '$1 == "piece" { print $2 }' ck4 | sort -u | wc -l)
check "batch: the checkpoint holds the pieces of 2 or more boards in flight (it has $inflight)" \
    test "$inflight" -ge 2
mpi "${ck4[@]}"
cp out resumed4.json
expect "batch: the same command resumes" 0
check "batch resumed: the same moves and counts as -j 1, board for board" same resumed4.json one4.json

# ---- a signal to one rank during a batch ------------------------------------------------
# the signal comes once the checkpoint holds a finished piece, while each rank has a board
# (seconds each with lc): every rank then catches it (a fixed delay could reach a rank of a
# loaded machine still in MPI_Init, before its handler, where SIGTERM kills it: exit 143); a
# worker not signalled finishes its board, so the run ends within a board's time
ckt=(-H lc -j 1 -f json --checkpoint ckt --checkpoint-every 0 hard4.txt)
ckt_searching() { has_piece ckt; }
for rank in 0 1; do
    rm -f ckt
    READY=ckt_searching signal_rank $rank TERM 0 "${ckt[@]}"
    check "SIGTERM to rank $rank in a batch: exit 130, the checkpoint written" \
        test -n "$killed" -a "$rc" = 130 -a -n "$(grep 'interrupted; checkpoint ckt written' err)"
    check "SIGTERM to rank $rank in a batch: the boards queued on the workers stop, not all 4 done (ended in ${took}s)" \
        test "$(grep -c '^done' ckt)" -lt 4
done

# ---- A* boards on the workers ----------------------------------------------------------
run solve -a astar -j 1 -f json "$DATA/hardest8.txt"
cp out astar1.json
mpi -a astar -j 1 -f json "$DATA/hardest8.txt"
expect "A* over 3 ranks" 0
check "A* over 3 ranks: the moves and counts of -j 1 (the workers run A* too)" same out astar1.json
# A* boards side by side on a rank share its memory, as in one process: a --max-memory that
# each of the two boards fits alone but not in half of it gives both a limit at -j 2
statuses() { sed -E -n 's/.*"status":"([a-z]+)".*/\1/p' out | sort | tr '\n' ' '; }
B=""
for b in 600K 800K 1200K 1600K 2400K; do
    run solve -a astar -H md -j 1 --max-memory "$b" -f json "$DATA/hardest8.txt"
    one=$(statuses)
    run solve -a astar -H md -j 2 --max-memory "$b" -f json "$DATA/hardest8.txt"
    if [ "$one" = "solved solved " ] && [ "$(statuses)" = "limit limit " ]; then
        B=$b
        break
    fi
done
if [ -n "$B" ]; then
    mpi -a astar -H md -j 2 --max-memory "$B" -f json "$DATA/hardest8.txt"
    check "A* over 3 ranks at -j 2, --max-memory $B: each board its rank's half, a limit as in one process" \
        test "$rc" = 1 -a "$(statuses)" = "limit limit "
else
    skip "A* memory shared on a rank: no --max-memory found that fits a board alone but not two"
fi

# ---- tables that differ on one rank ----------------------------------------------------
mkdir -p pdb8
cp "$T"/pdb/*.pdb pdb8/
run gen --pattern 13,14,15 --8bit --force --pdb-dir "$T/pdb8" --quiet
expect "one table rewritten with 8-bit entries (the same values, another checksum)" 0
LAST="mpirun -np 2 npuzzle-mpi --pdb-dir pdb : -np 1 npuzzle-mpi --pdb-dir pdb8"
timeout 240 mpirun --oversubscribe -np 2 "$MPI_BIN" "${P[@]}" -j 1 k20.txt : \
    -np 1 "$MPI_BIN" --partition 15:6-6-3 --pdb-dir "$T/pdb8" -j 1 k20.txt </dev/null >out 2>err
rc=$?
check "refused: non-zero exit" test "$rc" -ne 0
check "refused by rank and file" grep -Eq "rank 2: table .*pdb8/4x4-bf-13.14.15.pdb .*differs from rank 0's" err
check "nothing solved" test ! -s out
# a rank without the tables (it would take linear conflict instead): named with where it looked
# and the first table of the rank that has them
mkdir -p empty
LAST="mpirun -np 1 npuzzle-mpi --pdb-dir pdb : -np 1 npuzzle-mpi --pdb-dir empty"
timeout 240 mpirun --oversubscribe -np 1 "$MPI_BIN" "${P[@]}" -j 1 k20.txt : \
    -np 1 "$MPI_BIN" --partition 15:6-6-3 --pdb-dir "$T/empty" -j 1 k20.txt </dev/null >out 2>err
rc=$?
check "a rank without tables refused: non-zero exit" test "$rc" -ne 0
check "  ... named, with its folder and rank 0's first table" \
    grep -Eq "rank 1 opened 0 tables for 4x4 boards \(in .*/empty\), rank 0 3 \(in .*/pdb\); rank 0's first: .*pdb/4x4-bf-[0-9.]+\.pdb; every rank needs the same tables" err
check "  ... nothing solved" test ! -s out

cli_summary
