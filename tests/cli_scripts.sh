#!/usr/bin/env bash
# cli_scripts.sh - the benchmark scripts' usage, checked before any work: bad options and values
# refused with exit 2 before a table is built or a file written (bench-gen's --plot file is not
# left behind empty), a relative --build taken from the current folder, scripts/run refusing
# boards other than the 15-puzzle's and a second FILE before it installs or builds anything.
# usage: cli_scripts.sh NPUZZLE_BINARY   (its build folder is the scripts' --build)
set -u
. "$(dirname "$0")/cli_lib.sh"
cli_start "$@"
S=$HERE/../scripts
B=$(dirname "$(dirname "$NP")") # the build folder
# sc NAME ARGS...: the script, stdout in out, stderr in err, status in $rc
sc() {
    local name=$1
    shift
    LAST="scripts/$name $*"
    "$S/$name" "$@" </dev/null >out 2>err
    rc=$?
}

sc bench-gen --build "$B" --partition bogus
expect "bench-gen: an unknown partition refused" 2 err "--partition bogus refused"
if command -v gnuplot >/dev/null; then # (--plot asks for gnuplot first)
    sc bench-gen --build "$B" --partition bogus --plot "$T/x.png"
    expect "bench-gen --plot: an unknown partition refused" 2 err "--partition bogus refused"
    check "  ... and no empty --plot file left behind" test ! -e "$T/x.png"
    sc bench-gen --build "$B" --plot "$T/no/such/x.png"
    expect "bench-gen: --plot into a missing folder refused" 3 err "cannot write"
else
    skip "gnuplot not installed: bench-gen --plot"
fi
sc bench-gen --build "$B" --jobs "0 1"
expect "bench-gen: --jobs '0 1' refused" 2 err "'0' is not a thread count"
sc bench-gen --build "$B" --jobs ""
expect "bench-gen: --jobs '' refused" 2 err "no thread count given"

sc plot-pdb --build "$B" --frob "$T/y.png" a.pdb
expect "plot-pdb: an unknown option refused" 2 err "unknown option --frob"
check "  ... nothing written" test ! -e "$T/y.png"

sc bench-random15 --build "$B" -n 0
expect "bench-random15: -n 0 refused" 2 err "is not a number of boards"
sc bench-korf100 --build "$B" -H lc --zero-aware
expect "bench-korf100: -H lc --zero-aware refused (no tables)" 2 err "takes no tables"

# a relative --build is the caller's, as in every script
ln -s "$B" rel
LAST="(cd $T) scripts/bench-md --build rel --limit 1"
"$S/bench-md" --build rel --limit 1 </dev/null >out 2>err
rc=$?
expect "bench-md: a relative --build from the current folder" 0 out "of 1 compared"

sc run "$DATA/hardest8.txt"
expect "run: 8-puzzle boards refused, by file and line" 2 err "hardest8.txt:[0-9]+: 9 numbers, not a 15-puzzle board"
sc run "$DATA/korf100.txt" other.txt
expect "run: a second FILE refused" 2 err "one FILE only"
cli_summary
