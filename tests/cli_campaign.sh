#!/usr/bin/env bash
# cli_campaign.sh - scripts/campaign-24, the long benchmark campaign, with a stand-in solver (a
# small Python program as --build DIR's tools/npuzzle; no 24-puzzle tables needed): instances
# recorded easiest first and verified, a resumed run skipping them, an answer verify refuses
# not recorded, and a stop: Ctrl-C and a hangup reach the solver once (also under --budget,
# where timeout runs it in a process group of its own) and end the campaign with 130, the
# budget with 3, the checkpoint kept either way.
# usage: cli_campaign.sh NPUZZLE_BINARY   (only its presence is checked; the stand-in runs)
set -u
. "$(dirname "$0")/cli_lib.sh"
cli_start "$@"
CAMPAIGN=$HERE/../scripts/campaign-24
if ! command -v python3 >/dev/null || ! command -v timeout >/dev/null; then
    skip "no python3 or timeout (scripts/campaign-24 needs both)"
    cli_summary
    exit
fi

# The stand-in: gen and verify succeed (FAKE_VERIFY_RC), solve answers each board of its file
# with its opt= after FAKE_SLEEP seconds, and on SIGINT notes it in $T/got and exits 130, as
# npuzzle solve does after writing its checkpoint; it writes its pid to $T/solver.pid.
mkdir -p fake/tools
cat >fake/tools/npuzzle <<'PY'
#!/usr/bin/env python3
import json, os, re, signal, sys, time
T = os.environ["CAMPAIGN_T"]
def stop(*_):
    with open(os.path.join(T, "got"), "a") as f:
        f.write("INT\n")
    os._exit(130)
signal.signal(signal.SIGINT, stop)
cmd = sys.argv[1]
if cmd == "gen":
    open(os.path.join(T, "gen.ran"), "w").close()
    sys.exit(0)
if cmd == "verify":
    sys.exit(int(os.environ.get("FAKE_VERIFY_RC", "0")))
if cmd != "solve":
    sys.exit(2)
with open(os.path.join(T, "solver.pid"), "w") as f:
    f.write(str(os.getpid()))
with open(os.path.join(T, "solve.args"), "w") as f:
    f.write(" ".join(sys.argv[1:]) + "\n")
deadline = time.time() + float(os.environ.get("FAKE_SLEEP", "0"))
while time.time() < deadline:
    time.sleep(0.05)
for line in open(sys.argv[-1]):
    m, o = re.search(r"id=(\d+)", line), re.search(r"opt=(\d+)", line)
    if m and o:
        print(json.dumps({"id": m.group(1), "size": "5x5", "status": "solved",
                          "length": int(o.group(1)), "opt": int(o.group(1)), "check": "ok",
                          "nodes_generated": 1000, "nodes_expanded": 500, "seconds": 0.1}))
PY
chmod +x fake/tools/npuzzle
export CAMPAIGN_T=$T

# campaign ARGS...: the script, stdout and stderr in out and err, status in $rc
campaign() {
    LAST="scripts/campaign-24 $*"
    "$CAMPAIGN" --build "$T/fake" "$@" </dev/null >out 2>err
    rc=$?
}
# the two easiest instances by their published count
easiest=$(awk '$1 == "kf24" {print $4, $2}' "$DATA/published-nodes.txt" | sort -n | head -2 | awk '{print $2}' | tr '\n' ' ')

campaign --dir c --mode default --count 2
expect "two instances recorded" 0
check "  ... the two easiest, in order ($easiest)" \
    test "$(python3 -c 'import json,sys; print(" ".join(json.loads(l)["id"] for l in open(sys.argv[1])), end=" ")' c/results-default.jsonl)" = "$easiest"
check "  ... nothing else left in the folder" test "$(ls -A c)" = results-default.jsonl
campaign --dir c --mode default --count 2
expect "run again: nothing to do" 0 out "2 of 2 recorded"
campaign --dir c3 --mode default --count 1 --piece-nodes 4096
expect "--piece-nodes: an instance recorded" 0
check "  ... passed to npuzzle solve" grep -q -- ' --piece-nodes 4096 ' solve.args
campaign --dir c4 --count 1 --piece-nodes 0
expect "--piece-nodes 0: refused" 2 err "piece-nodes: '0' is not a count"
check "  ... nothing made" test ! -e c4
FAKE_VERIFY_RC=1 campaign --dir c2 --mode default --count 1
expect "an answer npuzzle verify refuses: exit 1" 1 err "does not pass npuzzle verify"
check "  ... not recorded" test ! -s c2/results-default.jsonl

# stop SIGNAL WHOM ARGS...: the campaign started with SIGINT, SIGHUP and SIGTERM at their
# defaults (as from a terminal; the test itself may run under nohup, and a shell cannot trap a
# signal ignored when it starts) in a session of its own; once the solver runs, SIGNAL goes to
# the whole process group (as Ctrl-C does: WHOM group) or to the script alone (WHOM script);
# $rc, $took and $T/got after.
stop() {
    local sig=$1 whom=$2
    shift 2
    rm -f got solver.pid
    LAST="scripts/campaign-24 $* (SIG$sig to the $whom)"
    FAKE_SLEEP=60 python3 -c 'import os, signal, sys
for s in (signal.SIGINT, signal.SIGHUP, signal.SIGTERM):
    signal.signal(s, signal.SIG_DFL)
os.setsid()
os.execvp(sys.argv[1], sys.argv[1:])' "$CAMPAIGN" --build "$T/fake" "$@" </dev/null >out 2>err &
    local pid=$! t0
    for _ in $(seq 200); do [ -s solver.pid ] && break; sleep 0.05; done
    t0=$(date +%s)
    if [ "$whom" = group ]; then kill -s "$sig" -- "-$pid"; else kill -s "$sig" "$pid"; fi
    wait "$pid"
    rc=$?
    took=$(($(date +%s) - t0))
}
stop INT group --dir s1 --mode default --count 1
expect "Ctrl-C: exit 130" 130 out "interrupted during instance"
check "  ... the solver got SIGINT once ($(tr '\n' ' ' <got 2>/dev/null))" test "$(cat got 2>/dev/null)" = INT
check "  ... at once ($took s), not after its 60 s" test "$took" -le 10
check "  ... its checkpoint name kept for the next run, nothing recorded" test ! -s s1/results-default.jsonl
stop INT group --dir s2 --mode default --count 1 --budget 10
expect "Ctrl-C under --budget: exit 130" 130 out "interrupted during instance"
check "  ... the solver got SIGINT once (timeout's process group)" test "$(cat got 2>/dev/null)" = INT
check "  ... at once ($took s)" test "$took" -le 10
stop HUP script --dir s3 --mode default --count 1
expect "a hangup: exit 130" 130 out "interrupted during instance"
check "  ... the solver got SIGINT once" test "$(cat got 2>/dev/null)" = INT
rm -f got
# (15 s: the start, with its python3 calls, takes seconds on a loaded machine)
FAKE_SLEEP=60 campaign --dir s4 --mode default --count 1 --budget 0.25
expect "the budget (15 s) runs out: exit 3" 3 out "budget spent during instance"
check "  ... the solver got SIGINT once" test "$(cat got 2>/dev/null)" = INT

# a damaged results file: named by line, before anything is built or written
mkdir -p d1
printf '{"id": "38"}\n{"id": "1"\n' >d1/results-default.jsonl
rm -f solver.pid gen.ran
campaign --dir d1 --mode default --count 1
expect "a results line cut short: exit 2, named by line" 2 err "d1/results-default.jsonl:2: not a json record"
check "  ... no table built, no solver started" test ! -e gen.ran -a ! -e solver.pid
printf '{"id": "38"}\n\n{"status": "solved"}\n' >d1/results-default.jsonl
campaign --dir d1 --mode default --count 1
expect "a results line without an id: exit 2" 2 err "d1/results-default.jsonl:3: no id"
campaign --dir d2 --mode default -j 0
expect "-j 0: exit 2" 2 err "-j: '0' is not a thread count"
check "  ... --dir not made" test ! -e d2
campaign --dir d2 --mode default --budget 0
expect "--budget 0: exit 2" 2 err "--budget: '0' is not a number of minutes above 0"
check "  ... --dir not made" test ! -e d2
rm -f gen.ran
echo not a directory >afile
campaign --dir afile/sub --mode default --count 1
expect "--dir under a file: exit 2, named" 2 err "--dir 'afile/sub' cannot be made or written"
check "  ... before the tables are built" test ! -e gen.ran
cli_summary
