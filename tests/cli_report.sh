#!/usr/bin/env bash
# cli_report.sh - scripts/report, which turns campaign results into a Markdown table beside the
# published counts: the ratios and totals (worked out here by awk from data/published-nodes.txt),
# the machines of a campaign run on more than one, --name and --no-plots, and bad input refused
# with its file and line and no report written.
set -u
. "$(dirname "$0")/cli_lib.sh"
cli_start "$@"
REPORT=$HERE/../scripts/report

# report ARGS...: scripts/report, stdout in out, stderr in err, status in $rc.
report() {
    LAST="scripts/report $*"
    "$REPORT" "$@" </dev/null >out 2>err
    rc=$?
}
# group N: N with commas between groups of three digits (as the report writes counts)
group() { echo "$1" | sed -e ':a' -e 's/\([0-9]\)\([0-9]\{3\}\)\($\|,\)/\1,\2\3/' -e 'ta'; }
published() { awk -v id="$1" '$1 == "kf24" && $2 == id {print $4}' "$DATA/published-nodes.txt"; }

p38=$(published 38)
p40=$(published 40)
check "the published counts of Korf–Felner #38 and #40 found in data/" test -n "$p38" -a -n "$p40"
n38=$((p38 / 2)) # about half the published count
n40=$p40
row() { # ID NODES MACHINE
    printf '{"id":"%s","size":"5x5","status":"solved","length":%s,"opt":%s,"nodes_generated":%s,' \
        "$1" 90 90 "$2"
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
    grep -Fq "| 38 | 90 | 90 | $(group "$n38") | $(group "$p38") | $r38 | 1.25 | A |" d/two.md
check "#40: ratio 1.000, on machine B" \
    grep -Fq "| 40 | 90 | 90 | $(group "$n40") | $(group "$p40") | 1.000 | 1.25 | B |" d/two.md
check "the totals: $tot of $totp published, ratio $totr, 2.50 s" \
    grep -Fq "| total | | | $tot | $totp | $totr | 2.50 | |" d/two.md
check "both machines named in the header, each with its count" \
    grep -Fq -- "- machines: A: box one (1 instance); B: box two (1 instance)" d/two.md
check "one commit: named once" grep -Fxq -- "- commit: abc1234" d/two.md
check "--no-plots: no links to plots" test "$(grep -c '!\[' d/two.md)" -eq 0

row 38 "$n38" "box one" >one.jsonl
report one.jsonl --out d --name one --no-plots
expect "one machine: written" 0
check "  ... named once, and no machine column" \
    grep -Fq "| 38 | 90 | 90 | $(group "$n38") | $(group "$p38") | $r38 | 1.25 |" d/one.md
check "  ... the header says machine, not machines" grep -Fxq -- "- machine: box one" d/one.md

{ row 38 "$n38" "box one"; echo '{"id": 40, oops'; } >bad.jsonl
mkdir e
report bad.jsonl --out e --no-plots
expect "a line that is not json: refused, by file and line" 2 err "bad.jsonl:2: not a json record"
check "  ... and no report written" test -z "$(ls -A e)"
report two.jsonl --out e --name a/b --no-plots
expect "--name with a '/': refused" 2 err "--name"
report two.jsonl --bogus
expect "an unknown option: refused" 2 err "unknown option --bogus"

if command -v gnuplot >/dev/null; then
    mkdir f
    report two.jsonl --out f
    expect "with gnuplot: report.md and its two plots" 0
    check "  ... report.md, nodes.png and time.png, nothing else" \
        test "$(ls -A f | tr '\n' ' ')" = "nodes.png report.md time.png "
    check "  ... the plots are PNG files" grep -q PNG f/nodes.png
    check "  ... linked from report.md" grep -Fq "](nodes.png)" f/report.md
else
    skip "gnuplot not installed: the plots"
fi
cli_summary
