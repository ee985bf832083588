#!/usr/bin/env bash
# cli_solve.sh - end-to-end tests of `npuzzle solve`: formats, lengths, exit codes, messages.
#
# usage: bash tests/cli_solve.sh PATH_TO_NPUZZLE     (NPUZZLE_DATA_DIR: the data/ folder)
#
# Every answer is checked here, independently of the program: move strings are
# replayed by the shell, lengths are compared with known optima (the goal, one
# and two moves from it, the two 31-move 8-puzzle boards, Korf's instances) or
# with exact distances from a small breadth-first search in awk (2x3, 3x2, 2x4),
# and scrambles of k moves must solve in at most k moves of the same parity.
set -u

. "$(dirname "$0")/cli_lib.sh"
cli_start "$@"

# ---- helpers (no subprocesses where a loop runs: forks are slow on a busy machine) ----

# run ARGS... and run_in FILE ARGS... (cli_lib.sh): npuzzle with stdin from /dev/null or
# FILE; stdout in out, and here also in the array OUT; stderr in err, status in $rc.
OUT=()
cli_after_run() { mapfile -t OUT <out; }

# jparse LINE: the keys of a flat JSON object into the associative array J
# (string values without their quotes).
declare -A J=()
jparse() {
    J=()
    local rest=$1 v re='"([A-Za-z0-9_]+)"[[:space:]]*:[[:space:]]*("[^"]*"|[^,}[:space:]]*)'
    while [[ $rest =~ $re ]]; do
        v=${BASH_REMATCH[2]}
        [[ $v == \"*\" ]] && v=${v:1:${#v}-2}
        J[${BASH_REMATCH[1]}]=$v
        rest=${rest#*"${BASH_REMATCH[0]}"}
    done
}

# jfind ID: parse the JSON line of board ID (in the last run's output) into J.
jfind() {
    local l re='"id"[[:space:]]*:[[:space:]]*"'"$1"'"'
    for l in "${OUT[@]}"; do
        if [[ $l =~ $re ]]; then
            jparse "$l"
            return 0
        fi
    done
    J=()
    echo "     no output line for id $1"
    return 1
}

# jfield ID KEY: print one value (for checks written as a single test command).
jfield() {
    jfind "$1" >/dev/null && echo "${J[$2]:-}"
}

# goal R C LAST: the goal tiles in REPLY (LAST=1: 1 2 ... n-1 0, else 0 1 ... n-1).
goal() {
    local n=$(($1 * $2)) i s=""
    for ((i = 0; i < n; i++)); do
        if [ "$3" = 1 ]; then s+="$(((i + 1) % n)) "; else s+="$i "; fi
    done
    REPLY=${s% }
}

# replay R C "TILES" MOVES: the tiles after the blank's moves in REPLY, or "illegal".
replay() {
    local R=$1 C=$2 moves=$4 i b=0 r c nb n=$(($1 * $2))
    local -a t
    read -r -a t <<<"$3"
    for ((i = 0; i < n; i++)); do [ "${t[i]}" = 0 ] && b=$i; done
    REPLY=illegal
    for ((i = 0; i < ${#moves}; i++)); do
        r=$((b / C))
        c=$((b % C))
        case ${moves:i:1} in
        U) r=$((r - 1)) ;;
        D) r=$((r + 1)) ;;
        L) c=$((c - 1)) ;;
        R) c=$((c + 1)) ;;
        *) return ;;
        esac
        ((r < 0 || r >= R || c < 0 || c >= C)) && return
        nb=$((r * C + c))
        t[b]=${t[nb]}
        t[nb]=0
        b=$nb
    done
    REPLY="${t[*]}"
}

# scramble R C LAST MOVES: print the goal after MOVES (nothing when one is illegal).
scramble() {
    goal "$1" "$2" "$3"
    replay "$1" "$2" "$REPLY" "$4"
    [ "$REPLY" != illegal ] && echo "$REPLY"
}

# bfs_dist R C LAST < boards: exact distance of each board (one per line), -1 if unreachable.
bfs_dist() {
    awk -v R="$1" -v C="$2" -v LAST="$3" '
    BEGIN {
        n = R * C; g = ""
        for (c = 0; c < n; c++) g = g (c ? " " : "") (LAST ? (c + 1) % n : c)
        dist[g] = 0; q[0] = g; head = 0; tail = 1
        while (head < tail) {
            s = q[head++]; d = dist[s]; split(s, t, " ")
            for (c = 1; c <= n; c++) if (t[c] == 0) b = c - 1
            r = int(b / C); k = b % C
            for (m = 0; m < 4; m++) {
                nr = r + (m == 0 ? -1 : m == 3 ? 1 : 0); nk = k + (m == 1 ? -1 : m == 2 ? 1 : 0)
                if (nr < 0 || nr >= R || nk < 0 || nk >= C) continue
                nb = nr * C + nk
                t[b + 1] = t[nb + 1]; t[nb + 1] = 0
                u = t[1]; for (c = 2; c <= n; c++) u = u " " t[c]
                t[nb + 1] = t[b + 1]; t[b + 1] = 0
                if (!(u in dist)) { dist[u] = d + 1; q[tail++] = u }
            }
        }
    }
    { gsub(/,/, " "); $1 = $1; print (($0 in dist) ? dist[$0] : -1) }'
}

# strip_seconds < json: the output without the timing fields.
strip_seconds() {
    sed -E 's/"seconds"[[:space:]]*:[[:space:]]*[0-9.eE+-]+//'
}

# solution_ok R C LAST "TILES": the board parsed into J is solved, its moves are
# legal, as many as its length, and reach the goal; h0 <= length.
solution_ok() {
    local len=${J[length]:-} mv=${J[moves]:-} h0=${J[h0]:-}
    [ "${J[status]:-}" = solved ] || { echo "     [$4]: status '${J[status]:-}'"; return 1; }
    [ "${#mv}" = "$len" ] || { echo "     [$4]: moves '$mv' but length $len"; return 1; }
    replay "$1" "$2" "$4" "$mv"
    local end=$REPLY
    goal "$1" "$2" "$3"
    [ "$end" = "$REPLY" ] || { echo "     [$4] + $mv -> [$end]"; return 1; }
    [[ $h0 =~ ^[0-9]+$ ]] && [ "$h0" -le "$len" ] || { echo "     [$4]: h0 '$h0', length $len"; return 1; }
}

# w10 W: ten times a weight such as 2 or 1.5, as an integer.
w10() {
    case $1 in
    *.*) echo $((10#${1%%.*} * 10 + 10#${1#*.})) ;;
    *) echo $(($1 * 10)) ;;
    esac
}

# within L OPT W: OPT <= L <= W*OPT and L has OPT's parity.
within() {
    (($1 >= $2 && 10 * $1 <= $(w10 "$3") * $2 && ($1 - $2) % 2 == 0))
}

# ---- the test boards ----------------------------------------------------------

goal 3 3 0
G33=$REPLY
B1=$(scramble 3 3 0 R)                  # one move from the goal
B2=$(scramble 3 3 0 RD)                 # two moves
B10=$(scramble 3 3 0 DDRRUULDRD)        # ten moves: at most 10, even
B16=$(scramble 3 3 0 RRDLLDRRULURDDLU)  # sixteen moves: at most 16, even
H1="8 0 6 5 4 7 2 3 1"                  # the two 31-move boards
H2="8 7 6 0 4 1 2 5 3"
U1="0 2 1 3 4 5 6 7 8"                  # other parity half

cat >main.txt <<EOF
# cli_solve test boards (3x3, goal 0 1 2 ... 8)
$G33  # id=goal opt=0
$B1  # id=one opt=1

${B2// /,}  # id=two opt=2
$H1  # id=hard1 opt=31
${H2// /,}  # opt=31
$U1  # id=unsolvable
$B10
$B16  # id=s16
EOF
# ids in input order (lines 7 and 9 have none: their line numbers)
IDS="goal one two hard1 7 unsolvable 9 s16"
declare -A TILES=([goal]="$G33" [one]="$B1" [two]="$B2" [hard1]="$H1" [7]="$H2"
    [unsolvable]="$U1" [9]="$B10" [s16]="$B16")
declare -A EXACT=([goal]=0 [one]=1 [two]=2 [hard1]=31 [7]=31)
declare -A ATMOST=([9]=10 [s16]=16)

# answers_ok [WEIGHT]: the JSON output answers every board of main.txt correctly
# (with WEIGHT > 1: opt <= length <= WEIGHT*opt, same parity).
answers_ok() {
    local w=${1:-1} id len k bad=0
    for id in $IDS; do
        jfind "$id" || { bad=1; continue; }
        if [ "$id" = unsolvable ]; then
            [ "${J[status]:-} ${J[solvable]:-} ${J[length]:-} ${J[moves]:-}. ${J[nodes_generated]:-}" = \
                "unsolvable false -1 . 0" ] || { echo "     unsolvable board: $(declare -p J)"; bad=1; }
            continue
        fi
        solution_ok 3 3 0 "${TILES[$id]}" || { echo "     (id $id)"; bad=1; continue; }
        [ "${J[solvable]:-}" = true ] || { echo "     $id: solvable '${J[solvable]:-}'"; bad=1; }
        len=${J[length]}
        if [ -n "${EXACT[$id]:-}" ]; then
            if [ "$w" = 1 ]; then
                [ "$len" = "${EXACT[$id]}" ] || { echo "     $id: length $len, opt ${EXACT[$id]}"; bad=1; }
            else
                within "$len" "${EXACT[$id]}" "$w" ||
                    { echo "     $id: length $len, opt ${EXACT[$id]}, weight $w"; bad=1; }
            fi
        else
            # a k-move scramble: optimal <= k, so at most W*k moves, with k's parity
            k=${ATMOST[$id]}
            ((10 * len <= $(w10 "$w") * k && (k - len) % 2 == 0)) ||
                { echo "     $id: length $len for a $k-move scramble (weight $w)"; bad=1; }
        fi
    done
    return $bad
}

# ---- formats -------------------------------------------------------------------

# the text table's columns count an id's characters, not its bytes: e-acute (2 bytes) pads to the
# width of "total" as one character (it lost a column per byte past the first)
printf '1 0 2 3 4 5 6 7 8 # id=\303\251\n1 0 2 3 4 5 6 7 8 # id=abc\n' >utf8id.txt
run solve -H md -j 1 utf8id.txt
expect "text: a UTF-8 id padded by its characters" 0 out "^$(printf '\303\251')     3x3 " \
    out "^abc   3x3 "

run solve --format json main.txt
check "json: exit 0" test "$rc" = 0
check "json: one line per board" test "${#OUT[@]}" = 8
ids_in_order() {
    local l got=""
    for l in "${OUT[@]}"; do
        jparse "$l"
        got+="${J[id]:-?} "
    done
    [ "$got" = "$IDS " ] || { echo "     ids: $got"; return 1; }
}
check "json: ids in input order (line numbers by default)" ids_in_order
keys_ok() {
    local l k
    for l in "${OUT[@]}"; do
        jparse "$l"
        for k in id size status solvable length moves nodes_expanded nodes_generated seconds h0; do
            [ -n "${J[$k]+set}" ] || { echo "     no key $k in $l"; return 1; }
        done
        [ "${J[size]}" = 3x3 ] || { echo "     size in $l"; return 1; }
        [[ ${J[nodes_expanded]} =~ ^[0-9]+$ && ${J[nodes_generated]} =~ ^[0-9]+$ &&
            ${J[seconds]} =~ ^[0-9.eE+-]+$ ]] || { echo "     numbers in $l"; return 1; }
    done
}
check "json: every key present, size 3x3" keys_ok
check "json: lengths correct, moves replay to the goal, unsolvable answered" answers_ok
opt_keys_ok() {
    local id
    for id in goal one two hard1 7; do
        jfind "$id" || return 1
        [ "${J[opt]:-} ${J[check]:-}" = "${EXACT[$id]} ok" ] || { echo "     $id: $(declare -p J)"; return 1; }
    done
}
check "json: opt and check=ok where opt= is given" opt_keys_ok
cp out main.json
JSON_MAIN=("${OUT[@]}")

run solve --format csv main.txt
check "csv: exit 0" test "$rc" = 0
check "csv: header row" test "$(head -n 1 out | cut -d, -f1-10)" = \
    "id,size,status,solvable,length,moves,nodes_expanded,nodes_generated,seconds,h0"
check "csv: one row per board" test "$(tail -n +2 out | grep -c .)" = 8
csv_matches_json() {
    local want="" l got
    for l in "${JSON_MAIN[@]}"; do
        jparse "$l"
        want+="${J[id]},${J[size]},${J[status]},${J[solvable]},${J[length]},${J[moves]}"$'\n'
    done
    want=${want%$'\n'}
    got=$(tail -n +2 out | cut -d, -f1-6)
    [ "$want" = "$got" ] || { diff <(echo "$want") <(echo "$got") | sed 's/^/     /'; return 1; }
}
check "csv: rows match the json answers, in input order" csv_matches_json

run solve --format text main.txt
check "text: exit 0" test "$rc" = 0
check "text: header, one line per board, total line" test "${#OUT[@]}" = 10
check "text: last line starts with total" test "${OUT[9]%% *}" = total
check "text: ids in input order" test "$(sed -n '2,9p' out | awk '{print $1}' | tr '\n' ' ')" = "$IDS "
text_aligned() {
    # the size column ("3x3") starts at the same place on every board line
    local cols
    cols=$(sed -n '2,9p' out | awk '{ print index($0, " 3x3 ") }' | sort -u | tr '\n' ' ')
    [ "$(echo "$cols" | wc -w)" = 1 ] && [ "$cols" != "0 " ] || { echo "     size column at: $cols"; return 1; }
}
check "text: columns aligned (ids of different lengths)" text_aligned
run solve main.txt
check "text is the default format" test "${OUT[0]%% *}" = id

# ---- stdin, threads, heuristics, algorithms, weights ------------------------------

run_in main.txt solve --format json
check "stdin (no FILE): exit 0" test "$rc" = 0
check "stdin (no FILE): same answers as the file" \
    test "$(strip_seconds <out)" = "$(strip_seconds <main.json)"
run_in main.txt solve --format json -
check "stdin ('-'): same answers as the file" \
    test "$(strip_seconds <out)" = "$(strip_seconds <main.json)"

# more boards, so that two threads really share them
{
    cat main.txt
    for m in RDLURD DRULDDRR RRDDLULURDRD DRDRULLDRURDLLUR RDRDLLURRULDDLUR; do
        scramble 3 3 0 "$m"
    done
} >many.txt
run solve --format json -j 1 many.txt
cp out j1.json
run solve --format json -j 2 many.txt
check "-j 2: exit 0" test "$rc" = 0
check "-j 1 and -j 2: identical output but for seconds" \
    test "$(strip_seconds <j1.json)" = "$(strip_seconds <out)"
check "-j 1 and -j 2: 13 boards" test "${#OUT[@]}" = 13
lengths() {
    sed -E 's/.*"length"[[:space:]]*:[[:space:]]*(-?[0-9]+).*/\1/' "$1" | tr '\n' ' '
}
generated() {
    sed -E 's/.*"nodes_generated"[[:space:]]*:[[:space:]]*([0-9]+).*/\1/' "$1" | tr '\n' ' '
}
# every length of many.txt is its breadth-first distance (bfs8 in cli_lib.sh: python3, no npuzzle)
check "many.txt, -j 1: each length the BFS distance" \
    test "$(lengths j1.json)" = "$(bfs8 many.txt | tr '\n' ' ')"
run solve --format json --batch one-at-a-time -j 2 many.txt
check "--batch one-at-a-time -j 2: exit 0" test "$rc" = 0
check "--batch one-at-a-time -j 2: the lengths and counts of -j 1" \
    test "$(lengths out) $(generated out)" = "$(lengths j1.json) $(generated j1.json)"
run solve --format json --batch parallel -j 3 main.txt
check "--batch parallel -j 3: exit 0" test "$rc" = 0
check "--batch parallel -j 3: lengths correct, moves replay" answers_ok
run solve --batch sideways many.txt
check "--batch sideways: exit 2, named" eval '[ "$rc" = 2 ] && grep -q "unknown --batch .sideways." err'
# 24-puzzle boards go one at a time by default (--batch auto): --progress names each one's iterations
{
    scramble 5 5 0 RRDDLLURDRUL
    scramble 5 5 0 DDRRULDRURDLLU
} >five.txt
run solve -H lc -j 2 --progress five.txt
check "5x5 boards, -j 2: each board's iterations reported, named" \
    eval '[ "$rc" = 0 ] && grep -q "^npuzzle solve: \[1/2\] [^ ]*: bound" err && grep -q "^npuzzle solve: \[2/2\] [^ ]*: bound" err'
run solve -H lc -j 2 --progress --batch parallel five.txt
check "5x5 boards, --batch parallel: no iteration lines" \
    eval '[ "$rc" = 0 ] && ! grep -q "bound [0-9]* next" err'
run solve --format json --algorithm astar -j 2 many.txt
check "--algorithm astar -j 2: same lengths as IDA* -j 1" test "$(lengths out)" = "$(lengths j1.json)"

run solve --format json -H lc main.txt
check "-H lc: exit 0" test "$rc" = 0
check "-H lc: lengths correct, moves replay" answers_ok
run solve --format json -H md main.txt
check "-H md: lengths correct, moves replay" answers_ok
run solve --format json --algorithm astar main.txt
check "--algorithm astar: exit 0" test "$rc" = 0
check "--algorithm astar: lengths correct, moves replay" answers_ok
run solve --format json --algorithm astar -H md main.txt
check "--algorithm astar -H md: lengths correct" answers_ok
# --max-memory is shared by the A* boards solved side by side: two copies of an 8-puzzle board
# that A* (-H md) solves in 1000 KiB but not in 500 KiB (it needs 600-800 KiB: the closed table's
# old and new arrays count together while it grows)
hardest8_twice mem2.txt
run solve --format csv --algorithm astar -H md -j 1 --max-memory 1000K mem2.txt
check "--algorithm astar --max-memory 1000K -j 1: both solved, one after the other" \
    test "$rc" = 0 -a "$(grep -c ',solved,' out)" = 2
run solve --format csv --algorithm astar -H md -j 2 --batch parallel --max-memory 1000K mem2.txt
check "  ... -j 2: side by side, 500K each, both stop at the limit (exit 1)" \
    test "$rc" = 1 -a "$(grep -c ',limit,' out)" = 2
expect "  ... the limit named: A*'s memory, from --max-memory" 1 \
    err "reached a limit" err "the limits: A\*'s memory \(--max-memory"
run solve --format csv -H md --max-nodes 100 --timeout 60 mem2.txt
expect "IDA* stopped by --max-nodes: the limits in force named" 1 \
    err "the limits: --max-nodes 100, --timeout 60$"
run solve --format csv --algorithm astar -H md -j 2 --batch parallel --max-memory 2000K mem2.txt
check "  ... -j 2 with 2000K: 1000K each, both solved" test "$rc" = 0 -a "$(grep -c ',solved,' out)" = 2

# Without -H, A* takes linear conflict, the stronger of the two it can use. On this board
# Manhattan distance is 4 (tile 2 two cells, 7 and 8 one each) and each of rows 0 and 2 holds a
# reversed pair of its own tiles, 2 moves more each: 8.
printf '2 1 0 3 4 5 6 8 7\n' >lc.txt
run solve --format json --algorithm astar -H md lc.txt
expect "--algorithm astar -H md: h0 4" 0 out '"h0":4[,}]'
run solve --format json --algorithm astar lc.txt
expect "--algorithm astar without -H: linear conflict, h0 8" 0 out '"h0":8[,}]'
run solve --format json --algorithm ida main.txt
check "--algorithm ida: same as the default" test "$(strip_seconds <out)" = "$(strip_seconds <main.json)"
run solve --format json --weight 2 main.txt
check "--weight 2: exit 0" test "$rc" = 0
check "--weight 2: opt <= length <= 2*opt, moves replay" answers_ok 2
run solve --format json --weight 1.5 --algorithm astar main.txt
check "--weight 1.5 --algorithm astar: opt <= length <= 1.5*opt" answers_ok 1.5
run solve --format json --weight 2 --check main.txt
check "--weight 2 --check: within the bound is not a mismatch (exit 0)" test "$rc" = 0
# A weight of 100 takes the 8-puzzle's paths to the 1000 moves an answer holds, where the search
# stops: a limit that no option set, so the run says where it comes from (it said only "reached a
# limit").
echo "8 7 6 5 4 3 2 1 0" >deep.txt
run solve -H md -j 1 --weight 100 deep.txt
expect "--weight 100 on the 8-puzzle: a limit (exit 1), and the path cap named as its cause" 1 \
    out "stopped at bound" err "reached a limit" err "reaches 1000 moves"
run solve -H md -j 1 --weight 100 --max-nodes 10 deep.txt
check "  ... not when a limit was given (--max-nodes 10)" eval "[ $rc = 1 ] && ! grep -q '1000 moves' err"

# ---- --check, limits --------------------------------------------------------------

run solve --check --format json main.txt
check "--check, all opt= right: exit 0" test "$rc" = 0
cat >wrong.txt <<EOF
$B1  # id=right opt=1
$B2  # id=wrong opt=4
EOF
run solve --check --format json wrong.txt
check "--check, a wrong opt=: exit 1" test "$rc" = 1
check "--check, a wrong opt=: check mismatch" test "$(jfield wrong check)" = mismatch
check "--check, a wrong opt=: the other board still solved and ok" \
    test "$(jfield right status) $(jfield right length) $(jfield right check)" = "solved 1 ok"
run solve --format json wrong.txt
check "no --check: a wrong opt= does not change the exit code" test "$rc" = 0

cat >limit.txt <<EOF
$H1  # id=hard
$B1  # id=easy
EOF
run solve --format json --max-nodes 10 limit.txt
check "--max-nodes 10: exit 1" test "$rc" = 1
check "--max-nodes 10: hard board status limit, length -1, moves empty" \
    test "$(jfield hard status) $(jfield hard length) $(jfield hard moves)." = "limit -1 ."
check "--max-nodes 10: the other board still solved" \
    test "$(jfield easy status) $(jfield easy length)" = "solved 1"
run solve --max-nodes 10 limit.txt
check "--max-nodes 10, text: exit 1, total line printed" test "$rc ${OUT[3]%% *}" = "1 total"
# A board a limit stopped has no answer to hold to opt=: no check, no mismatch.
printf '%s  # id=hard opt=31\n%s  # id=easy opt=1\n' "$H1" "$B1" >limitopt.txt
run solve --check --format json --max-nodes 10 limitopt.txt
check "--check --max-nodes 10: exit 1, the limited board has opt but no check, the other ok" \
    test "$rc $(jfield hard status) $(jfield hard opt) $(jfield hard check). $(jfield easy check)" \
    = "1 limit 31 . ok"
check "  ... and no mismatch said on standard error" eval '! grep -q "did not match" err'
run solve --check --max-nodes 10 limitopt.txt
check "  ... text: exit 1, the total line printed, and no CHECK MISMATCH in it" \
    eval '[ "$rc ${OUT[-1]%% *}" = "1 total" ] && ! grep -q MISMATCH out'
run solve --format json --max-nodes 10 --algorithm astar limit.txt
check "--max-nodes 10 --algorithm astar: exit 1, limit, other board solved" \
    test "$rc $(jfield hard status) $(jfield easy length)" = "1 limit 1"

KORF3=$(grep -E 'id=3( |$)' "$DATA/korf100.txt" | head -n 1)
if [ -n "$KORF3" ]; then
    printf '%s\n%s\n' "${KORF3%%#*} # id=k3" "1 0 2 3 4 5 6 7 8 9 10 11 12 13 14 15 # id=k1" >timeout.txt
    t0=$SECONDS
    run solve --format json --timeout 0.3 timeout.txt
    t1=$SECONDS
    check "--timeout 0.3 on Korf #3: exit 1, status limit" test "$rc $(jfield k3 status)" = "1 limit"
    check "--timeout 0.3: the other board still solved" test "$(jfield k1 length)" = 1
    check "--timeout 0.3: returns within 5 s" test $((t1 - t0)) -le 5
else
    check "data/korf100.txt has instance 3" false
fi

# ---- the 15-puzzle --------------------------------------------------------------

grep -E 'id=(12|79)( |$)' "$DATA/korf100.txt" >korf.txt
check "data/korf100.txt: instances 12 and 79 found" test "$(grep -c . korf.txt)" = 2
run solve --check --format json -H lc korf.txt
check "Korf #12 and #79 with -H lc --check: exit 0" test "$rc" = 0
korf_ok() {
    local id tiles want
    for id in 12 79; do
        tiles=$(grep -E "id=$id( |\$)" korf.txt | sed -E 's/#.*//; s/[[:space:],]+/ /g; s/ $//; s/^ //')
        want=45
        [ "$id" = 79 ] && want=42
        jfind "$id" || return 1
        [ "${J[length]} ${J[size]}" = "$want 4x4" ] || { echo "     #$id: length ${J[length]}, size ${J[size]}"; return 1; }
        solution_ok 4 4 0 "$tiles" || return 1
    done
}
check "Korf #12 and #79: lengths 45 and 42, size 4x4, moves replay" korf_ok

# ---- other sizes and the blank-last goal ---------------------------------------------

# small_size R C LAST: boards of an RxC puzzle (the goal, scrambles, one from the
# other half) solved with --size and --goal; lengths equal the awk BFS distances.
small_size() {
    local R=$1 C=$2 last=$3 i tiles bad=0 gname=blank-first m x
    local -a t want
    [ "$last" = 1 ] && gname=blank-last
    {
        goal "$R" "$C" "$last"
        echo "$REPLY"
        for m in R L U D RD LU RDLU LURD RDLURD LURDLU DRULDR RRDLLURDRULD LLURRDLURDLU DLURDLURRDLU; do
            scramble "$R" "$C" "$last" "$m"
        done
        # the other half: the goal with the tiles of cells 1 and 2 swapped
        goal "$R" "$C" "$last"
        read -r -a t <<<"$REPLY"
        x=${t[1]}
        t[1]=${t[2]}
        t[2]=$x
        echo "${t[*]}"
    } >small.txt
    mapfile -t want < <(bfs_dist "$R" "$C" "$last" <small.txt)
    run solve --format json --size "${R}x${C}" --goal "$gname" small.txt
    [ "$rc" = 0 ] || { echo "     exit $rc"; return 1; }
    [ "${#OUT[@]}" = "${#want[@]}" ] || { echo "     ${#OUT[@]} lines for ${#want[@]} boards"; return 1; }
    i=0
    while IFS= read -r tiles; do
        i=$((i + 1))
        jfind "$i" || { bad=1; continue; }
        if [ "${want[i - 1]}" = -1 ]; then
            [ "${J[status]}" = unsolvable ] || { echo "     [$tiles]: ${J[status]} (want unsolvable)"; bad=1; }
            continue
        fi
        solution_ok "$R" "$C" "$last" "$tiles" || { bad=1; continue; }
        [ "${J[length]}" = "${want[i - 1]}" ] || { echo "     [$tiles]: length ${J[length]}, BFS ${want[i - 1]}"; bad=1; }
        [ "${J[size]}" = "${R}x${C}" ] || { echo "     size ${J[size]}"; bad=1; }
    done <small.txt
    return $bad
}
check "--size 2x3: exact lengths (awk BFS), unsolvable answered" small_size 2 3 0
check "--size 3x2: exact lengths (awk BFS)" small_size 3 2 0
check "--size 2x4: exact lengths (awk BFS)" small_size 2 4 0
check "--size 2x3 --goal blank-last: exact lengths (awk BFS)" small_size 2 3 1

cat >last.txt <<EOF
1 2 3 4 5 6 7 8 0  # id=goal opt=0
1 2 3 4 5 6 7 0 8  # id=one opt=1
8 6 7 2 5 4 3 0 1  # id=h1 opt=31
6 4 7 8 5 0 3 2 1  # id=h2 opt=31
EOF
last_ok() {
    local id tiles
    for id in goal one h1 h2; do
        tiles=$(grep "id=$id " last.txt | sed 's/ *#.*//')
        jfind "$id" || return 1
        solution_ok 3 3 1 "$tiles" || return 1
    done
    test "$(jfield h1 length) $(jfield h2 length) $(jfield one moves)" = "31 31 R"
}
run solve --format json --goal blank-last --check last.txt
check "--goal blank-last: exit 0 (opt= checked)" test "$rc" = 0
check "--goal blank-last: 0, 1 (R), 31, 31 moves, replaying to 1 2 ... 8 0" last_ok
run solve --format json --goal blank-last --algorithm astar --check last.txt
check "--goal blank-last --algorithm astar: exit 0, same answers" last_ok

# ---- bad input: exit 2, FILE:LINE: field N, nothing solved ------------------------------

# bad_input NAME CONTENT PATTERN: solving NAME (holding CONTENT) exits 2, prints
# nothing on stdout and a message matching PATTERN on stderr.
bad_input() {
    printf '%b' "$2" >"$1"
    run solve --format json "$1"
    [ "$rc" = 2 ] || { echo "     exit $rc, want 2"; return 1; }
    grep -q -E "$3" err || { echo "     stderr does not match /$3/"; return 1; }
    [ ! -s out ] || { echo "     results printed for a bad file"; return 1; }
}
GOOD="$G33"
check "wrong count: exit 2, count.txt:2:" \
    bad_input count.txt "$GOOD\n0 1 2 3 4 5 6 7\n" '^count\.txt:2: '
check "too many numbers: exit 2, count2.txt:1:" \
    bad_input count2.txt "0 1 2 3 4 5 6 7 8 9\n" '^count2\.txt:1: '
check "duplicate tile: exit 2, dup.txt:3: field 6: duplicate" \
    bad_input dup.txt "# comment\n$GOOD\n0 1 2 3 4 4 6 7 8\n" '^dup\.txt:3: field 6: .*duplicate'
check "out of range: exit 2, range.txt:2: field 9:" \
    bad_input range.txt "$GOOD\n0 1 2 3 4 5 6 7 9\n" '^range\.txt:2: field 9: '
check "negative tile: exit 2, neg.txt:1: field 2:" \
    bad_input neg.txt "0 -1 2 3 4 5 6 7 8\n" '^neg\.txt:1: field 2: '
check "non-integer: exit 2, word.txt:2: field 4:" \
    bad_input word.txt "$GOOD\n0 1 2 x 4 5 6 7 8\n" '^word\.txt:2: field 4: '
check "non-integer (3.5): exit 2, frac.txt:1: field 4:" \
    bad_input frac.txt "0 1 2 3.5 4 5 6 7 8\n" '^frac\.txt:1: field 4: '
check "every bad line reported: two.txt:2 and two.txt:4" \
    bad_input two.txt "$GOOD\n0 1 2 3 4\n$GOOD\n1 1 2 3 4 5 6 7 8\n" '^two\.txt:2: '
check "every bad line reported: the second one too" grep -q -E '^two\.txt:4: field 2: ' err
check "6 numbers without --size: exit 2" bad_input six.txt "0 1 2 3 4 5\n" '^six\.txt:1: '
check "a control byte in a field: shown as \\x0b" \
    bad_input vt.txt "0 1 2 3 4 5 6 7 8\v\n" "^vt\\.txt:1: field 9: '8\\\\x0b' is not an integer"
check "opt=+5: exit 2, field opt" bad_input optsign.txt "$GOOD # opt=+5\n" "^optsign\\.txt:1: field opt: '\\+5'"
check "opt= twice: exit 2" bad_input opt2.txt "$GOOD # opt=3 opt=4\n" '^opt2\.txt:1: field opt: given twice'
check "id= twice: exit 2" bad_input id2.txt "$GOOD # id=a id=b\n" '^id2\.txt:1: field id: given twice'
check "a control byte in id=: exit 2, shown as \\x01" \
    bad_input idctl.txt "$GOOD # id=\001z\n" "^idctl\\.txt:1: field id: '\\\\x01z' holds a control character"
printf '%s\n' "$GOOD" >good.txt
printf '%s\n0 1 2 3 4 4 6 7 8\n' "$GOOD" >bad2.txt
run solve --format json good.txt bad2.txt
check "bad line in the second file: exit 2, names that file" \
    test "$rc" = 2 -a -n "$(grep -E '^bad2\.txt:2: field 6: ' err)"
check "bad line in the second file: nothing solved" test ! -s out
printf '0 1 2 3 4 4 6 7 8\n' >stdin_bad.txt
run_in stdin_bad.txt solve --format json
check "bad line on stdin: exit 2 with :LINE: field N" test "$rc" = 2 -a -n "$(grep -E ':1: field 6: ' err)"
printf '0 1 2 3 4 5 6 7 8\n' >nine.txt
run solve --size 2x3 nine.txt
check "--size 2x3 with 9 numbers: exit 2" test "$rc" = 2
# more than 20 malformed lines, over two files: the first 20 reported, the rest counted
for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15; do echo "0 1 2 x 4 5 6 7 8"; done >bad15a.txt
cp bad15a.txt bad15b.txt
run solve --format json bad15a.txt bad15b.txt
check "30 malformed lines in two files: exit 2, 20 reported, the last bad15b.txt:5" \
    test "$rc $(grep -c ': field 4: ' err) $(grep ': field 4: ' err | tail -n 1 | cut -d: -f1,2)" \
    = "2 20 bad15b.txt:5"
check "30 malformed lines: '... and 10 more malformed lines', then the count" \
    test "$(tail -n 2 err | tr '\n' '|')" \
    = "... and 10 more malformed lines|npuzzle solve: 30 malformed lines, nothing solved|"
head -n 5 bad15b.txt >bad5.txt
run solve --format json bad15a.txt bad5.txt
check "exactly 20 malformed lines: all reported, no '... and N more'" \
    test "$rc $(grep -c ': field 4: ' err) $(grep -c 'more malformed' err)" = "2 20 0"
printf '%s\n1 0 2\0 3 4 5 6 7 8\n' "$GOOD" >nul.txt
run_in nul.txt solve --format json
check "a NUL byte on stdin: exit 2, <stdin>:2: field 3 (the tile it follows): the line holds a NUL byte" \
    test "$rc" = 2 -a -n "$(grep -xF '<stdin>:2: field 3: the line holds a NUL byte (binary input?)' err)"
printf '1 0 2 3 \0 4 5 6 7 8\n1 0 2 3 4 5 6 7 8  # id=a\0\n' >nul2.txt
run solve --format json nul2.txt
check "a NUL byte between fields: the next one named; in the comment: the comment named" \
    test "$rc $(grep -c -e '^nul2.txt:1: field 5: ' -e '^nul2.txt:2: field comment: ' err)" = "2 2"
# Two boards with one id: solved, but noted (npuzzle verify pairs answers by id and refuses that)
printf '%s  # id=a\n%s  # id=b\n%s  # id=a\n' "$B1" "$B1" "$H1" >dup.txt
run solve --format json dup.txt
check "an id given twice: exit 0, the note names it and both lines" \
    test "$rc $(grep -c 'note: id a is given to more than one board (dup.txt:1 and dup.txt:3)' err)" = "0 1"
run solve --format json -q dup.txt
check "  ... not with -q" test "$rc" = 0 -a ! -s err
printf '%s\n' "$B1" >one_line.txt
run solve --format json one_line.txt one_line.txt
check "one file given twice, no id=: its line numbers noted as shared ids" \
    grep -q 'note: id 1 is given to more than one board (one_line.txt:1 and one_line.txt:1)' err
# A UTF-8 byte order mark before the first line (some editors write one) is not part of it
printf '\xef\xbb\xbf%s  # id=bom\n' "$B1" >bom.txt
run solve --format json bom.txt
check "a byte order mark first: ignored, the board solved" test "$rc $(jfield bom length)" = "0 1"
# lines ended in CR LF are read; lines ended in CR alone are refused (read as one line, the first
# comment would hide the boards after it: 0 boards, exit 0, before)
printf '%s  # id=crlf1\r\n%s  # id=crlf2\r\n' "$B1" "$B1" >crlf.txt
run solve --format json crlf.txt
check "CR LF line ends: both boards solved" test "$rc $(jfield crlf1 length) $(jfield crlf2 length)" = "0 1 1"
printf '# two boards\r%s\r%s\r' "$B1" "$B1" >cr.txt
run solve cr.txt
check "CR line ends: exit 2, cr.txt:1 and the carriage return named, nothing solved" \
    test "$rc" = 2 -a -n "$(grep -F 'cr.txt:1: column 13: a carriage return inside the line' err)" -a ! -s out

# ---- bad usage: exit 2; I/O: exit 3 ------------------------------------------------------

usage_error() {
    run solve "$@" main.txt
    [ "$rc" = 2 ] && [ -s err ] && [ ! -s out ]
}
check "unknown option: exit 2" usage_error --frobnicate
check "unknown heuristic: exit 2" usage_error -H foo
check "unknown format: exit 2" usage_error --format xml
check "unknown algorithm: exit 2" usage_error --algorithm bfs
check "weight below 1: exit 2" usage_error --weight 0.5
check "bad --max-nodes: exit 2" usage_error --max-nodes ten
check "bad --size: exit 2" usage_error --size 3by3
check "unknown goal: exit 2" usage_error --goal middle
check "-j 0: exit 2" usage_error -j 0
check "-j 1025: exit 2" usage_error -j 1025
# options of a search other than the one asked for are refused, not ignored (each ran, exit 0)
clash() { usage_error "$@" && grep -q "is for" err; }
check "--partition with -H md: exit 2, said" clash --partition no-such -H md
check "--partition with --algorithm astar: exit 2, said" clash --partition 8:4-4 -a astar
check "--gen with -H lc: exit 2, said" clash --gen -H lc
check "--no-reflect with -H lc: exit 2, said" clash --no-reflect -H lc
check "--prune with --algorithm astar: exit 2, said" clash --prune parent -a astar
# OMP_NUM_THREADS past -j's range counts as 1024 threads (before, 99,999 threads were asked
# for: 9 GB and a crash after 40 s).
printf '%s  # id=h\n' "$H1" >omp.txt
LAST="OMP_NUM_THREADS=99999 npuzzle solve --format json -H md omp.txt"
OMP_NUM_THREADS=99999 timeout 300 "$NP" solve --format json -H md omp.txt </dev/null >out 2>err
rc=$?
cli_after_run
check "OMP_NUM_THREADS=99999: exit 0, length 31" test "$rc $(jfield h length)" = "0 31"
check "option without its value: exit 2" usage_error --timeout
check "--partition with a line break: exit 2" usage_error --partition "$(printf '15:7-8\nx')"
# numbers as typed: digits first, no sign, space, hexadecimal or infinity
usage_value() { # OPTION VALUE: refused, the value named
    usage_error "$1" "$2" && grep -qF -- "'$2'" err
}
for bad in "--max-nodes  -5" "--max-nodes +5" "--max-memory K" "--max-memory MiB" "--max-memory 0" \
    "--max-memory 0G" "--timeout 0x10" \
    "--timeout inf" "--weight nan" "--size  3x3" "--size 3x+3"; do
    check "${bad%% *} '${bad#* }': exit 2, the value named" usage_value "${bad%% *}" "${bad#* }"
done
usage_option() { # MESSAGE ARGS...: refused, the message names the option as typed
    local msg=$1
    shift
    usage_error "$@" && grep -qF -- "$msg" err
}
check "-xq: the unknown letter named" usage_option "unknown option '-x'" -xq
check "-Hlc -xc: the unknown letter named" usage_option "unknown option '-x'" -Hlc -xc
check "--quiet=3: takes no value" usage_option "option '--quiet' takes no value" --quiet=3
check "--frobnicate named" usage_option "unknown option '--frobnicate'" --frobnicate

# options that do not fit one of the input's sizes are refused before any board is searched
printf '%s\n%s\n' "$G33" "1 0 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24" >mix.txt
run solve --progress -a astar mix.txt
check "A* and a 5x5 board after a 3x3 one: exit 2, mix.txt:2 named, nothing solved first" \
    test "$rc" = 2 -a -n "$(grep -F 'mix.txt:2: --algorithm astar' err)" -a -z "$(grep solved err)" -a ! -s out
printf '%s\n%s\n' "$G33" "1 0 2 3" >mix2.txt
run solve --progress -H pdb mix2.txt
check "-H pdb and a 2x2 board after a 3x3 one: exit 2, mix2.txt:2 named, nothing solved first" \
    test "$rc" = 2 -a -n "$(grep -F 'mix2.txt:2: no default partition' err)" -a -z "$(grep solved err)"
# --gen asks for tables: a size without a default partition is refused, with an example that fits it
printf '1 0 2 3 4 5\n' >two3.txt
run solve --gen --size 2x3 two3.txt
check "--gen and a 2x3 board, no default partition: exit 2, an example partition of its 5 tiles" \
    test "$rc" = 2 -a -n "$(grep -F 'two3.txt:1: no default partition for 2x3 boards; give --partition (e.g. 1,2,3/4,5)' err)"
# A* runs its boards side by side: --batch one-at-a-time (for IDA*'s split search) is refused
run solve -a astar --batch one-at-a-time main.txt
check "A* with --batch one-at-a-time: exit 2, said" \
    test "$rc" = 2 -a -n "$(grep -F -- '--batch one-at-a-time is for IDA*' err)" -a ! -s out
# the tables of a later size missing: said before the boards of the first size are searched (their
# answers would be lost), the file, the board's line and the command that builds them named
mkdir -p mixpdb
NPUZZLE_PDB_DIR="$T/mixpdb" "$NP" gen --partition 8:4-4 -j 1 --quiet >/dev/null 2>&1
printf '%s\n%s\n' "$G33" "1 0 2 3 4 5 6 7 8 9 10 11 12 13 14 15" >mix3.txt
NPUZZLE_PDB_DIR="$T/mixpdb" run solve --progress -H pdb mix3.txt
check "-H pdb, 3x3 tables there and 4x4 ones not: exit 3, mix3.txt:2 and the table named, nothing searched" \
    test "$rc" = 3 -a -n "$(grep -F 'mix3.txt:2: ' err | grep '4x4-bf-1.2.3.4.5.6.7.pdb: not found')" \
    -a -n "$(grep -F 'npuzzle gen --partition 15:7-8' err)" -a -z "$(grep solved err)" -a ! -s out
printf '%s\n' "$G33" >only3.txt
NPUZZLE_PDB_DIR="$T/mixpdb" run solve --progress --gen --partition 1,2,3,4,5,6,7,8 only3.txt
check "--gen with a pattern the board cannot have: exit 2, before any search or build" \
    test "$rc" = 2 -a -n "$(grep -F 'only3.txt:1: pattern 1 of the partition has 8 tiles' err)" \
    -a -z "$(grep -E 'solved|building' err)"

run solve no-such-file.txt
check "missing file: exit 3" test "$rc" = 3
check "missing file: the message names it" grep -q 'no-such-file\.txt' err
run solve main.txt no-such-file.txt
check "missing second file: exit 3, named, nothing solved" \
    test "$rc" = 3 -a -n "$(grep no-such-file err)" -a ! -s out

printf '%s\n' "1 0 2 3 4 5 6 7 8 9 10 11 12 13 14 15" >four.txt
run solve -H pdb four.txt
check "-H pdb without tables: exit 3 with a message" test "$rc" = 3 -a -s err

# ---- random boards (npuzzle random) ------------------------------------------------------

run random --size 3x3 -n 100 --seed 5
cp out rand5.txt
check "random: exit 0, a comment line and 100 boards" \
    test "$rc" = 0 -a "${#OUT[@]}" = 101 -a "${OUT[0]:0:1}" = "#"
# every board a permutation of 0..8 (checked here, not by the program)
perm_ok=1
for l in "${OUT[@]:1}"; do
    b=${l%%#*}
    [ "$(tr -s ' ' '\n' <<<"$b" | grep -v '^$' | sort -n | tr '\n' ' ')" = "0 1 2 3 4 5 6 7 8 " ] || perm_ok=0
done
check "random: every board is a permutation of the tiles" test "$perm_ok" = 1
run random --size 3x3 -n 100 --seed 5
check "random: the same seed gives the same boards" cmp -s out rand5.txt
run random --size 3x3 -n 100 --seed 6
check "random: another seed gives other boards" test "$(cmp -s out rand5.txt; echo $?)" = 1
run_in rand5.txt solve -H md --format csv
check "random: solve answers all 100, none unsolvable (ids from the comments)" \
    test "$rc" = 0 -a "$(grep -c ',solved,' out)" = 100 -a "$(grep -c '^100,' out)" = 1
# the boards and their answers are kept until all are printed (about 1.3 KiB a board): a run whose
# boards do not fit in --max-memory is refused while reading, before any search (1000 boards:
# about 1.3 MiB); --shard keeps only its boards
run random --size 3x3 -n 1000 --seed 5
cp out rand1000.txt
run_in rand1000.txt solve -H md --format csv --max-memory 1M
expect "1000 boards, --max-memory 1M: refused, exit 3, naming the line, the need and the limit" 3 \
    err "^npuzzle solve: <stdin>:[0-9]+: at board [0-9]+, the boards and their answers .*need more than the 1\.00 MiB --max-memory allows"
check "  ... before any search: no answer printed" test ! -s out
run_in rand1000.txt solve -H md --format csv --max-memory 2M
check "  ... with 2M: all 1000 solved" test "$rc" = 0 -a "$(grep -c ',solved,' out)" = 1000
run_in rand1000.txt solve -H md --format csv --max-memory 200K --shard 7/10
check "  ... with 200K and --shard 7/10: its 100 boards solved, the 7th (id 7) first" \
    test "$rc" = 0 -a "$(grep -c ',solved,' out)" = 100 -a "$(sed -n 2p out | cut -d, -f1)" = 7
# boards of two sizes: each size's batch has its own answers, so the whole input is measured again
{ printf '1 0 2 3\n'; cat rand1000.txt; } >mixed1000.txt
run_in mixed1000.txt solve -H md --format csv --max-memory 1500K --checkpoint ckmix
expect "  ... two sizes, 1500K: refused before any search, exit 3" 3 \
    err "1001 boards and their answers need [0-9.]+ MiB, more than the 1\.46 MiB --max-memory allows"
check "  ... no answer printed, no checkpoint made" test ! -s out -a ! -e ckmix
run random --size 2x4 -n 30 --seed 9 --goal blank-last
cp out rand24.txt
run_in rand24.txt solve -H md --goal blank-last --size 2x4 --format csv
check "random: blank-last 2x4 boards all solvable for their goal" \
    test "$rc" = 0 -a "$(grep -c ',solved,' out)" = 30
# a board that is not square says its size (size=RxC): solve needs no --size, and a 2x8 board (16
# tiles, as many as a 4x4's) is not read as 4x4 (about half of them would then be unsolvable)
run_in rand24.txt solve -H md --goal blank-last --format csv
check "random: 2x4 boards say their size, solve needs no --size" \
    test "$rc" = 0 -a "$(grep -c ',2x4,solved,' out)" = 30
run random --size 2x8 -n 20 --seed 3
check "random: 2x8 boards carry size=2x8" test "$(grep -c ' size=2x8$' out)" = 20
cp out rand28.txt
run_in rand28.txt solve -H md --max-nodes 1 --format csv
check "random: 2x8 boards read as 2x8, none unsolvable" \
    test "$(grep -c ',2x8,limit,' out)" = 20 -a "$(grep -c 'unsolvable' out)" = 0
# a header's size= sizes no board: said once, the boards read as their counts say
printf '# size=2x8\n1 2 3 0\n# size=2x4\n' >hdr.txt
run solve -H md -f csv hdr.txt
expect "a size= on a line of comment alone: noted once, by line" 0 \
    err "^npuzzle solve: note: hdr.txt:1: a size= on a line of comment alone sizes no board"
check "  ... once" test "$(grep -c 'sizes no board' err)" = 1
run_in rand28.txt solve -H md --max-nodes 1 --size 4x4
expect "random: 2x8 boards with --size 4x4: refused, naming the line and the field" 2 \
    err "<stdin>:2: field size: the line says 2x8, the size asked for is 4x4"
run random --size 9x9
expect "random: bad size: exit 2" 2 err "bad --size"
run random -n 3
expect "random: no size: exit 2" 2 err "required"
run random --size 3x3 --seed -1
expect "random: negative seed: exit 2" 2 err "--seed"
run random --size 4x4 -n 0
check "random: -n 0 prints only the comment" test "$rc" = 0 -a "${#OUT[@]}" = 1
run help random
expect "help random" 0 out "--seed"
run help version
expect "help version: exit 0" 0 out "npuzzle version"
for h in help --help -h; do
    run help $h
    expect "help $h: the command list, exit 0" 0 out "^  random " out "^  version "
done
run help nosuch
expect "help nosuch: exit 2" 2 err "no command 'nosuch'"
# every help text fits an 80-column terminal
for c in "--help" "help solve" "help gen" "help info" "help verify" "help random" "help version"; do
    # shellcheck disable=SC2086 # two words: the command and its argument
    run $c
    check "npuzzle $c: every line within 80 columns" test -z "$(awk 'length > 80' out)" -a -s out
done

# an empty --pdb-dir is a mistake (an unset variable), not the default directory
run solve --pdb-dir "" main.txt
expect "solve --pdb-dir '': refused, exit 2" 2 err "--pdb-dir: empty"
run gen --partition 8:4-4 --pdb-dir ""
expect "gen --pdb-dir '': refused, exit 2" 2 err "--pdb-dir: empty"

# ---- a full disk under standard output: the results are lost, so the exit code says so, and why ---

if [ -w /dev/full ]; then
    # (random -n 100000: the write fails within the run, where it said no reason)
    for args in "solve -H lc main.txt" "solve -H lc --format json main.txt" "random --size 4x4 -n 5" \
        "random --size 4x4 -n 100000" \
        "verify --boards main.txt --results main.json" "help solve"; do
        LAST="npuzzle $args >/dev/full"
        # shellcheck disable=SC2086 # the words of args are the arguments
        "$NP" $args </dev/null >/dev/full 2>err
        rc=$?
        expect "npuzzle $args >/dev/full: exit 3, named with its reason" 3 err "write error on standard output: No space left on device"
    done
else
    skip "a full disk under standard output: no writable /dev/full"
fi

# ---- quiet -------------------------------------------------------------------------------

run solve --quiet --format json main.txt
check "--quiet: exit 0, same output" test "$rc" = 0 -a "$(strip_seconds <out)" = "$(strip_seconds <main.json)"
check "--quiet: nothing on stderr" test ! -s err

cli_summary
