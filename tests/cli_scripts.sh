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

sc bench-md --build "$B" --limit 0
expect "bench-md: --limit 0 refused (it ran all 100)" 2 err "--limit takes 1 to 100, not '0'"
sc bench-md --build "$B" --limit 101
expect "bench-md: --limit 101 refused" 2 err "--limit takes 1 to 100, not '101'"
sc bench-md --build "$B" --limit 1 -j 2000
expect "bench-md: npuzzle solve's refusal passed on (exit 2)" 2 err "solve exited with 2"
check "  ... and no table of missing answers" test ! -s out
sc bench-24 --build "$B" --ids 38,40,38
expect "bench-24: an id given twice refused" 2 err "--ids: 38 given twice"
sc bench-24 --build "$B" --ids 38 --easiest 2
expect "bench-24: --ids and --easiest together refused" 2 err "give one of them"

sc run -j abc
expect "run: -j abc refused before the install" 2 err "-j: 'abc' is not a thread count"
printf '0 10 8 14 13 15 1 7 12 2 4 5 6 3 9 11  # id=1 size=2x8\n' >r28.txt
sc run r28.txt
expect "run: a 2x8 board (16 numbers, size=2x8) refused" 2 err "r28.txt:1: size=2x8: not a 15-puzzle board"
sc run "$DATA/hardest8.txt"
expect "run: 8-puzzle boards refused, by file and line" 2 err "hardest8.txt:[0-9]+: 9 numbers, not a 15-puzzle board"
sc run "$DATA/korf100.txt" other.txt
expect "run: a second FILE refused" 2 err "one FILE only"
cli_summary
