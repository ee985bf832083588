#!/usr/bin/env bash
# cli_report.sh - scripts/report, which turns campaign results into a Markdown table beside the
# published counts: the ratios and totals (worked out here by awk from data/published-nodes.txt),
# the machines of a campaign run on more than one, --name and --no-plots, a row compared only when
# it is the published instance of its id (its moves solve that board), nothing to plot said and not
# an error, and bad input refused with its file, line and field and no report written.
set -u
. "$(dirname "$0")/cli_lib.sh"
cli_start "$@"
export LC_ALL=C # the report's digit groups are its own, whatever the locale
REPORT=$HERE/../scripts/report
if ! command -v python3 >/dev/null; then
    skip "no python3 (scripts/report is a Python script)"
    cli_summary
    exit # 77 (skipped) when no check ran
fi

# report ARGS...: scripts/report, stdout in out, stderr in err, status in $rc.
report() {
    LAST="scripts/report $*"
    "$REPORT" "$@" </dev/null >out 2>err
    rc=$?
}
# group N: N with commas between groups of three digits (as the report writes counts)
group() { echo "$1" | sed -e ':a' -e 's/\(.*[0-9]\)\([0-9]\{3\}\)/\1,\2/' -e 'ta'; }
published() { awk -v id="$1" '$1 == "kf24" && $2 == id {print $4}' "$DATA/published-nodes.txt"; }
optimal() { awk -v id="$1" '$1 == "kf24" && $2 == id {print $3}' "$DATA/published-nodes.txt"; }

p38=$(published 38)
p40=$(published 40)
if [ -z "$p38" ] || [ -z "$p40" ]; then
    fail "the published counts of Korf–Felner #38 and #40 found in data/"
    cli_summary
    exit 1
fi
n38=$((p38 / 2)) # about half the published count
n40=$p40
o38=$(optimal 38)
o40=$(optimal 40)
row() { # ID NODES MACHINE: solved in the instance's optimal length (90 for an id not published)
    local o
    o=$(optimal "$1")
    printf '{"id":"%s","size":"5x5","status":"solved","length":%s,"opt":%s,"nodes_generated":%s,' \
        "$1" "${o:-90}" "${o:-90}" "$2"
    printf '"seconds":1.25,"mode":"default","partition":"24:6-6-6-6","jobs":2,"machine":"%s","commit":"abc1234"}\n' "$3"
}
{ row 38 "$n38" "box one"; row 40 "$n40" "box two"; } >two.jsonl

mkdir d
report two.jsonl --out d --name two --no-plots
expect "--name two --no-plots: written" 0
check "  ... two.md alone, no plots and no temporary file left" test "$(ls -A d)" = two.md
r38=$(awk -v a="$n38" -v b="$p38" 'BEGIN {printf "%.3f", a / b}')
tot=$(group $((n38 + n40)))
totp=$(group $((p38 + p40)))
totr=$(awk -v a="$n38" -v b="$n40" -v c="$p38" -v e="$p40" 'BEGIN {printf "%.3f", (a + b) / (c + e)}')
check "#38: its ratio to the published count ($r38), on machine A" \
    grep -Fq "| 38 | $o38 | $o38 | $(group "$n38") | $(group "$p38") | $r38 | 1.25 | A |" d/two.md
check "#40: ratio 1.000, on machine B" \
    grep -Fq "| 40 | $o40 | $o40 | $(group "$n40") | $(group "$p40") | 1.000 | 1.25 | B |" d/two.md
check "the totals: $tot of $totp published, ratio $totr, 2.50 s" \
    grep -Fq "| total | | | $tot | $totp | $totr | 2.50 | |" d/two.md
check "both machines named in the header, each with its count" \
    grep -Fq -- "- machines: A: box one (1 instance); B: box two (1 instance)" d/two.md
check "one commit: named once" grep -Fxq -- "- commit: abc1234" d/two.md
check "--no-plots: no links to plots" test "$(grep -c '!\[' d/two.md)" -eq 0

# a new report's mode is the umask's (mkstemp's 0600 was kept)
mkdir dm
(umask 022 && "$REPORT" two.jsonl --out dm --no-plots >/dev/null 2>&1)
check "report.md written under umask 022 is 644 ($(stat -c %a dm/report.md 2>/dev/null))" \
    test "$(stat -c %a dm/report.md 2>/dev/null)" = 644
# a row stopped by a limit and a row of no published set: the totals and the total ratio count
# only the solved rows with a published count (#25 limit, #x unpublished)
{
    row 38 "$n38" "box one"
    row 40 "$n40" "box one"
    row 25 1000 "box one" | sed 's/"status":"solved"/"status":"limit"/'
    row x 5000000000 "box one"
} >mixed.jsonl
report mixed.jsonl --out d --name mixed --no-plots
expect "results with a limit row and an unpublished id: written" 0
check "  ... the totals as for #38 and #40 alone: $tot of $totp, ratio $totr" \
    grep -Fq "| total | | | $(group $((n38 + n40 + 5000000000))) | $totp | $totr |" d/mixed.md
check "  ... the limit row named as left out" grep -Fq "25 (limit)" d/mixed.md

row 38 "$n38" "box one" >one.jsonl
report one.jsonl --out d --name one --no-plots
expect "one machine: written" 0
check "  ... named once, and no machine column" \
    grep -Fxq "| 38 | $o38 | $o38 | $(group "$n38") | $(group "$p38") | $r38 | 1.25 |" d/one.md
check "  ... the header says machine, not machines" grep -Fxq -- "- machine: box one" d/one.md
check "  ... and 1 instance, not 1 instances" grep -Fq '`one.jsonl`, 1 instance' d/one.md

# A row without a machine (null) is a machine of its own, "not recorded"; past 26 machines the
# keys go on as spreadsheet columns do (AA, AB, ...).
{ row 38 "$n38" "box one"; row 40 "$n40" "box one" | sed 's/"machine":"box one"/"machine":null/'; } \
    >null.jsonl
report null.jsonl --out d --name null --no-plots
expect "a row whose machine is null: written" 0
check "  ... that row's machine: not recorded (B)" grep -Fq "B: not recorded (1 instance)" d/null.md
for i in $(seq 28); do row 38 "$n38" "box $i"; done >many.jsonl
report many.jsonl --out d --name many --no-plots
expect "28 machines: written" 0
check "  ... the 27th and 28th keyed AA and AB" \
    test "$(grep -c '| AA |$' d/many.md) $(grep -c '| AB |$' d/many.md)" = "1 1"

# Ids alone do not make a board a published instance (npuzzle random numbers its boards 1..N):
# a row is compared when its moves solve the instance's board of data/ (undone from the goal
# here by the report), or, without moves, when its opt is the instance's optimal length.
sol38=$(python3 -c 'import json, sys
for line in open(sys.argv[1]):
    r = json.loads(line)
    if r["id"] == "38" and r.get("moves"):
        print(r["moves"]); break' "$DATA/campaign-24/results-default.jsonl" 2>/dev/null)
{
    row 38 "$n38" "box one" | sed "s/\"nodes_generated\"/\"moves\":\"$sol38\",\"nodes_generated\"/"
    row 40 "$n40" "box one" | sed 's/"nodes_generated"/"moves":"LURD","nodes_generated"/'
    row 25 1000 "box one" | sed 's/"opt":[0-9]*,//; s/"length":[0-9]*/"length":50/'
} >boards.jsonl
report boards.jsonl --out d --name boards --no-plots
expect "rows with moves, or only a length: written" 0
check "  ... #38, whose moves solve its board, compared (${#sol38} moves)" \
    grep -Fq "| 38 | $o38 | $o38 | $(group "$n38") | $(group "$p38") | $r38 |" d/boards.md
check "  ... #40, whose moves solve another board, and #25, solved in 50 moves without opt, not" \
    grep -Fq "(not that instance's board, or its optimal length not that instance's): 40, 25." d/boards.md
check "  ... the totals #38's alone" grep -Fq "| total | | | $(group $((n38 + n40 + 1000))) | $(group "$p38") | $r38 |" d/boards.md
row 38 "$n38" "box one" | sed 's/"nodes_generated":[0-9]*/"nodes_generated":1.5/' >bad.jsonl
report bad.jsonl --out d --name bad --no-plots
expect "a count that is not a whole number: refused, by file, line and field" 2 \
    err "bad.jsonl:1: field nodes_generated: 1.5 is not a whole number"
row 38 "$n38" "box one" | sed 's/"seconds":1.25/"seconds":true/' >bad.jsonl
report bad.jsonl --out d --name bad --no-plots
expect "seconds true: refused" 2 err "bad.jsonl:1: field seconds: true is not a number"
check "  ... and no report written" test ! -e d/bad.md
row 38 "$n38" "box one" | sed 's/"nodes_generated":[0-9]*/"nodes_generated":null/' >bad.jsonl
report bad.jsonl --out d --name bad --no-plots
expect "a null count: refused, by file, line and field" 2 \
    err "bad.jsonl:1: field nodes_generated: null is not a number"
row 38 "$n38" "box one" | sed 's/"seconds":1.25/"seconds":NaN/' >bad.jsonl
report bad.jsonl --out d --name bad --no-plots
expect "seconds NaN: refused" 2 err "bad.jsonl:1: field seconds: NaN is not a number"
check "  ... and no report written" test ! -e d/bad.md

{ row 38 "$n38" "box one"; echo '{"id": 40, oops'; } >bad.jsonl
mkdir e
report bad.jsonl --out e --no-plots
expect "a line that is not json: refused, by file and line" 2 err "bad.jsonl:2: not a json record"
check "  ... and no report written" test -z "$(ls -A e)"
report two.jsonl --out e --name a/b --no-plots
expect "--name with a '/': refused" 2 err "a file name without"
report two.jsonl --out e --name --no-plots
expect "--name --no-plots (a name that is an option): refused" 2 err "a file name without"
report two.jsonl --out e --name
expect "--name without a value: refused" 2 err "--name needs a value"
check "  ... and nothing written by any of them" test -z "$(ls -A e)"
report two.jsonl --bogus
expect "an unknown option: refused" 2 err "unknown option --bogus"

# gnuplot that fails: exit 3, the table without links to plots, no scratch file left
mkdir fake g
printf '#!/bin/sh\necho "gnuplot: broken" >&2\nexit 1\n' >fake/gnuplot
chmod +x fake/gnuplot
LAST="PATH=fake:\$PATH scripts/report two.jsonl --out g --name two"
PATH="$T/fake:$PATH" "$REPORT" two.jsonl --out g --name two </dev/null >out 2>err
rc=$?
expect "gnuplot failing: exit 3, and why" 3 err "gnuplot: broken" err "written without plots"
check "  ... two.md alone in the folder (no plots, no scratch files)" test "$(ls -A g)" = two.md
check "  ... and it links no plot" test "$(grep -c '!\[' g/two.md)" -eq 0

if command -v gnuplot >/dev/null; then
    mkdir f
    report two.jsonl --out f
    expect "with gnuplot: report.md and its two plots" 0
    check "  ... report.md, nodes.png and time.png, nothing else" \
        test "$(ls -A f | tr '\n' ' ')" = "nodes.png report.md time.png "
    check "  ... the plots are PNG files" grep -q PNG f/nodes.png
    check "  ... linked from report.md" grep -Fq "](nodes.png)" f/report.md
    report two.jsonl --out f --name two
    expect "with gnuplot and --name two: written" 0
    check "  ... two.md, two-nodes.png and two-time.png beside the others" \
        test "$(ls -A f | tr '\n' ' ')" = "nodes.png report.md time.png two-nodes.png two-time.png two.md "
    check "  ... linked from two.md" grep -Fq "](two-time.png)" f/two.md
else
    skip "gnuplot not installed: the plots"
fi

# nothing to plot (log scales): no solved row with a published count, or no time above 0 s
row 38 "$n38" "box one" | sed 's/"status":"solved"/"status":"limit"/' >limit.jsonl
mkdir h
report limit.jsonl --out h
expect "nothing to plot (a limit row alone): exit 0, said" 0 err "nothing to plot"
check "  ... report.md alone, linking no plot" test "$(ls -A h)" = report.md -a "$(grep -c '!\[' h/report.md)" -eq 0
row 38 "$n38" "box one" | sed 's/"seconds":1.25/"seconds":0/' >zero.jsonl
report zero.jsonl --out h --name zero
expect "nothing to plot (0 s): exit 0, said" 0 err "no search time above 0 s"
cli_summary
