# cli_lib.sh - what the command-line test scripts (tests/cli_*.sh) share. Sourced, never run:
#     . "$(dirname "$0")/cli_lib.sh"
# Sourcing only defines functions and sets the counters and $HERE/$DATA; each script then
# calls the set-up it needs (cli_start, or cli_tmpdir) and ends with cli_summary.
# A script that needs a variant of a helper defines its own after sourcing this file.

CLI_NAME=${0##*/}                       # e.g. cli_solve.sh
HERE=$(cd "$(dirname "$0")" && pwd)     # tests/
DATA=${NPUZZLE_DATA_DIR:-$HERE/../data}

passed=0
failed=0
skipped=0
LAST=""   # the last command run, shown when a check fails
rc=0      # its exit status

# ---- set-up ------------------------------------------------------------------------

# cleanup: run on exit (trap set by cli_tmpdir); scripts with more to undo redefine it.
cleanup() { rm -rf "$T"; }

# cli_tmpdir: a fresh temporary directory in $T, removed on exit.
cli_tmpdir() {
    T=$(mktemp -d "${TMPDIR:-/tmp}/${CLI_NAME%.sh}.XXXXXX")
    trap cleanup EXIT
}

# cli_start "$@": the script's argument must be the npuzzle binary (usage message and
# exit 2 otherwise), kept in $NP as an absolute path; OMP_NUM_THREADS defaults to 2; the
# script then works in a fresh $T, with no pattern databases (the user's cache must not
# change what is tested).
cli_start() {
    if [ $# -lt 1 ] || [ ! -x "$1" ]; then
        echo "usage: $CLI_NAME PATH_TO_NPUZZLE" >&2
        exit 2
    fi
    NP=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
    export OMP_NUM_THREADS=${OMP_NUM_THREADS:-2}
    cli_tmpdir
    cd "$T" || exit 2
    mkdir -p nopdb xdg
    export NPUZZLE_PDB_DIR="$T/nopdb" XDG_CACHE_HOME="$T/xdg"
}

# cli_start_quiet: for the scripts that print only their failures: OMP_NUM_THREADS=2, no
# NPUZZLE_PDB_DIR, a fresh $T (they stay in the caller's directory), and nothing may come
# from or land in the user's cache.
cli_start_quiet() {
    export OMP_NUM_THREADS=2
    unset NPUZZLE_PDB_DIR
    cli_tmpdir
    export XDG_CACHE_HOME="$T/cache"
}

# cli_summary: the last line of every script; its status is the script's (0: no failure).
# Returns 1 when a check failed, 77 (a skipped test, to meson) when every check was skipped,
# else 0.
cli_summary() {
    [ "$skipped" -gt 0 ] && echo "($skipped skipped)"
    echo "$passed passed, $failed failed"
    [ "$failed" -eq 0 ] || return 1
    [ "$passed" -eq 0 ] && [ "$skipped" -gt 0 ] && return 77
    return 0
}

# ---- running npuzzle (cli_start scripts: files out and err in $T) ---------------------

# cli_after_run: called after each run and run_in; a script may redefine it.
cli_after_run() { :; }

# run ARGS...: npuzzle, stdin from /dev/null; stdout in out, stderr in err, status in $rc.
run() {
    LAST="npuzzle $*"
    "$NP" "$@" </dev/null >out 2>err
    rc=$?
    cli_after_run
}
# run_in FILE ARGS...: the same with stdin from FILE.
run_in() {
    local in=$1
    shift
    LAST="npuzzle $* < $in"
    "$NP" "$@" <"$in" >out 2>err
    rc=$?
    cli_after_run
}
# as_nobody ARGS...: the same as run, as the unprivileged user 65534 (nobody), to meet the
# permission errors that root never meets; out and err are opened by this shell. Call
# nobody_can first.
as_nobody() {
    LAST="(as uid 65534) npuzzle $*"
    setpriv --reuid=65534 --regid=65534 --clear-groups "$NP" "$@" </dev/null >out 2>err
    rc=$?
    cli_after_run
}
# nobody_can: whether as_nobody can run here: running as root, with setpriv, and $NP
# reachable by uid 65534 ($T is opened to others for it: its files stay 0644/0755). Sets $why.
nobody_can() {
    why=""
    if [ "$(id -u)" -ne 0 ]; then
        why="not running as root: the checks above meet the permission errors"
    elif ! command -v setpriv >/dev/null 2>&1; then
        why="no setpriv to run as another user"
    else
        chmod 0755 "$T"
        setpriv --reuid=65534 --regid=65534 --clear-groups "$NP" version >/dev/null 2>&1 ||
            why="uid 65534 cannot run $NP (a directory above it closed to others)"
    fi
    [ -z "$why" ]
}

# ---- checks, one "ok   NAME" / "FAIL NAME" line each ----------------------------------

pass() { passed=$((passed + 1)); echo "ok   $1"; }
# fail NAME: a failed check, with the last command and the start of its output
fail() {
    failed=$((failed + 1))
    echo "FAIL $1"
    echo "     command: $LAST (exit $rc)"
    sed -n '1,6s/^/     stdout: /p' out 2>/dev/null
    sed -n '1,6s/^/     stderr: /p' err 2>/dev/null
}
skip() { skipped=$((skipped + 1)); echo "skip $1"; }

# check NAME COMMAND...: one test; passes when COMMAND succeeds.
check() {
    local name=$1
    shift
    if "$@"; then pass "$name"; else fail "$name"; fi
}
# truth NAME COMMAND...: the same as check
truth() { check "$@"; }

# expect NAME WANT_RC [FILE REGEX]...: the last run exited WANT_RC and each FILE (out or
# err) matches its extended REGEX (grep options in $EXPECT_GREP: -Eq, or -Eiq to ignore case)
EXPECT_GREP=-Eq
expect() {
    local name=$1 want=$2
    shift 2
    if [ "$rc" -ne "$want" ]; then fail "$name: exit $rc, want $want"; return; fi
    while [ $# -ge 2 ]; do
        grep "$EXPECT_GREP" -- "$2" "$1" || { fail "$name: '$2' not in $1"; return; }
        shift 2
    done
    pass "$name"
}

# no_temp DIR: no temporary (dot) files left in DIR (the record of verified tables is no temporary)
no_temp() { [ -z "$(ls -A "$1" 2>/dev/null | grep '^\.' | grep -vxF .npuzzle-verified)" ]; }

# ---- quiet checks (cli_tmpdir scripts: output in $T/out and $T/err) -------------------
# Only failures are printed, on stderr, as "FAIL: ...".

ok() { passed=$((passed + 1)); }
bad() { failed=$((failed + 1)); echo "FAIL: $*" >&2; }

# expect_rc WANT DESCRIPTION CMD...: run CMD, output in $T/out and $T/err
expect_rc() {
    local want=$1 what=$2
    shift 2
    "$@" >"$T/out" 2>"$T/err"
    local rc=$?
    if [ "$rc" -eq "$want" ]; then ok; else
        bad "$what: exit $rc, want $want"
        sed 's/^/    /' "$T/err" >&2
    fi
}
# expect_grep PATTERN FILE DESCRIPTION: FILE matches the (basic) regular expression
expect_grep() { cli_grep -q "$@"; }
# has PATTERN FILE DESCRIPTION: FILE holds the fixed string
has() { cli_grep -qF "$@"; }
# cli_grep GREP_OPTIONS PATTERN FILE DESCRIPTION
cli_grep() {
    if grep "$1" -- "$2" "$3"; then ok; else
        bad "$4: '$2' not in $(basename "$3")"
        sed 's/^/    /' "$3" >&2
    fi
}

# bfs8 FILE: the distance of each 3x3 board of FILE (blank-first goal; '#' comments and blank
# lines skipped), one per line (-1: unsolvable), by a breadth-first search from the goal over all
# 181,440 boards in python3: ground truth that shares no code with npuzzle
bfs8() {
    python3 - "$1" <<'PY'
import sys
from collections import deque
goal = tuple(range(9))
dist = {goal: 0}
q = deque([goal])
while q:
    s = q.popleft()
    b = s.index(0)
    r, c = divmod(b, 3)
    for nr, nc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
        if 0 <= nr < 3 and 0 <= nc < 3:
            t = list(s)
            n = nr * 3 + nc
            t[b], t[n] = t[n], 0
            t = tuple(t)
            if t not in dist:
                dist[t] = dist[s] + 1
                q.append(t)
for line in open(sys.argv[1]):
    tiles = line.split("#")[0].replace(",", " ").split()
    if tiles:
        print(dist.get(tuple(int(x) for x in tiles), -1))
PY
}

# hardest8_twice FILE: the first 31-move 8-puzzle board of data/hardest8.txt twice, as ids a and b
# (A* with -H md solves it in 600 KiB of --max-memory, not in 300 KiB: tests of its memory share)
hardest8_twice() {
    local board
    board=$(grep -v '^#' "$DATA/hardest8.txt" | head -n 1 | sed 's/ *#.*//')
    printf '%s  # id=a\n%s  # id=b\n' "$board" "$board" >"$1"
}

# "${default_hup[@]}" CMD: CMD with SIGHUP at its default even when the test runs under nohup
# (env --default-signal: GNU coreutils 8.31 and later; where there is none, CMD as it is)
# shellcheck disable=SC2034 # (used by the scripts that source this)
default_hup=(env --default-signal=HUP)
# shellcheck disable=SC2034
env --default-signal=HUP true 2>/dev/null || default_hup=()
