#!/usr/bin/env bash
# cli_reproduce.sh - the reproduction mode and the default search on the 24-puzzle: with
# `--reproduce kf2002`, Korf-Felner #38 and #40 generate exactly the nodes that Korf & Felner 2002
# published (read from data/published-nodes.txt); the default search (duplicate pruning by the
# machine) finds the same optimal lengths with fewer nodes, and --dual with fewer again. Builds the
# 24:6-6-6-6 tables it needs, with those of the dual lookups (330 MB, about 45 s on two cores), in a
# temporary directory; skipped, saying why, in sanitizer
# builds (there the build takes about ten minutes). Slow suite.
# usage: cli_reproduce.sh NPUZZLE_BINARY
set -u
. "$(dirname "$0")/cli_lib.sh"
cli_start "$@"

if ldd "$NP" 2>/dev/null | grep -q 'libasan\|libubsan'; then
    skip "a sanitizer build: building the 24:6-6-6-6 tables takes about ten minutes there; the release build runs this test"
    cli_summary
    exit # 77 (skipped) when no check ran
fi
avail=$(df -Pk "$T" | awk 'NR == 2 {print $4}')
if [ "${avail:-0}" -lt 400000 ]; then
    skip "less than 400 MB free in $T for the 24:6-6-6-6 tables"
    cli_summary
    exit # 77 (skipped) when no check ran
fi

run gen --partition 24:6-6-6-6 -j 2 --dual --pdb-dir "$T/pdb" --quiet
expect "24:6-6-6-6 built, with the tables of the dual lookups (about 8 s more)" 0
for id in 38 40; do
    grep -E "# id=$id opt=" "$DATA/korf-felner-24.txt" >kf$id.txt
    published=$(awk -v id=$id '$1 == "kf24" && $2 == id {print $4}' "$DATA/published-nodes.txt")
    opt=$(sed -E 's/.*opt=([0-9]+).*/\1/' kf$id.txt)
    check "instance $id and its published count found in data/" test -n "$published" -a -n "$opt"
    run solve --reproduce kf2002 --pdb-dir "$T/pdb" -j 2 -f csv --check kf$id.txt
    expect "kf2002 #$id: optimal" 0
    nodes=$(awk -F, 'NR == 2 {print $8}' out)
    LAST="npuzzle solve --reproduce kf2002 kf$id.txt: $nodes nodes, published $published"
    check "kf2002 #$id: $nodes nodes generated, as Korf & Felner 2002 published ($published)" \
        test "$nodes" = "$published"
    run solve --pdb-dir "$T/pdb" -j 2 -f csv --check kf$id.txt
    expect "default search #$id: optimal ($opt moves)" 0
    fast=$(awk -F, 'NR == 2 {print $8}' out)
    LAST="npuzzle solve kf$id.txt: $fast nodes, published $published"
    check "default search #$id: fewer nodes ($fast) than the published count" \
        test "$fast" -lt "$published"
    run solve --dual --pdb-dir "$T/pdb" -j 2 -f csv --check kf$id.txt
    expect "--dual #$id: optimal ($opt moves)" 0
    check "--dual #$id: no note of a missing table" test ! -s err
    dual=$(awk -F, 'NR == 2 {print $8}' out)
    LAST="npuzzle solve --dual kf$id.txt: $dual nodes, default $fast"
    check "--dual #$id: fewer nodes ($dual) than the default search ($fast)" test "$dual" -lt "$fast"
done
cli_summary
