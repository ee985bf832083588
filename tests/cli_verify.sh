#!/usr/bin/env bash
# cli_verify.sh - end-to-end tests of `npuzzle verify`: the solver's answers in every format pass,
# and each kind of corrupted answer (illegal move, wrong final position, wrong length, wrong opt=,
# false unsolvable, missing answer) fails with exit 1 and a message naming the board.
#
# usage: bash tests/cli_verify.sh PATH_TO_NPUZZLE     (NPUZZLE_DATA_DIR: the data/ folder)
set -u

. "$(dirname "$0")/cli_lib.sh"
cli_start "$@"

# run ARGS... and run_in FILE ARGS... (cli_lib.sh): npuzzle, stdin from /dev/null or FILE;
# stdout in out, stderr in err, status in $rc.

# expect NAME WANT_RC [FILE PATTERN]...: the last run exited WANT_RC and each FILE
# (out or err) matches its extended regular expression.
expect() {
    local name=$1 want=$2 why=""
    shift 2
    [ "$rc" -eq "$want" ] || why="exit $rc, want $want"
    while [ $# -ge 2 ] && [ -z "$why" ]; do
        grep -Eq -- "$2" "$1" || why="'$2' not in $1"
        shift 2
    done
    if [ -z "$why" ]; then
        pass "$name"
    else
        failed=$((failed + 1))
        echo "FAIL $name: $why"
        echo "     command: $LAST"
        sed -n '1,8s/^/     stdout: /p' out
        sed -n '1,8s/^/     stderr: /p' err
    fi
}

# solve_to FILE ARGS...: npuzzle solve ARGS, output saved in FILE (must exit 0).
solve_to() {
    local dst=$1
    shift
    run solve -q "$@"
    cp out "$dst"
    expect "solve $* -> $dst" 0
}

H8="$DATA/hardest8.txt"
grep -E "id=(42|55|79)\b" "$DATA/korf100.txt" >k3.txt
{
    echo "# mixed 3x3 boards: the goal, one move away, unsolvable, and a named one"
    echo "0 1 2 3 4 5 6 7 8   # opt=0"
    echo "1 0 2 3 4 5 6 7 8   # opt=1"
    echo "1 0 2 3 4 5 6 8 7"
    echo "1 2 5 3 4 0 6 7 8   # id=two opt=3"
} >mixed.txt

# ---- the solver's own answers pass, in every format -----------------------------
solve_to h8.json -H md --format json "$H8"
solve_to h8.csv -H md --format csv "$H8"
solve_to h8.txt -H lc "$H8"
for f in h8.json h8.csv h8.txt; do
    run verify --boards "$H8" --results $f
    expect "hardest8 $f verifies" 0 out "hardest8.txt:9 \\($f:[0-9]+\\): id 1: ok, 31 moves \\(opt 31\\)" \
        out "id 2: ok, 31 moves" out "^verify: 2 boards: 2 ok, 0 wrong$"
done
solve_to k3.json -H lc --format json k3.txt
solve_to k3.csv -H md --format csv k3.txt
solve_to k3.txt.out -H lc k3.txt
for f in k3.json k3.csv k3.txt.out; do
    run verify --boards k3.txt --results $f
    expect "korf100 42,55,79 $f verifies" 0 out "id 55: ok, 41 moves \\(opt 41\\)" out "3 ok, 0 wrong"
done
solve_to mixed.json -H md --format json mixed.txt
solve_to mixed.csv -H md --format csv mixed.txt
for f in mixed.json mixed.csv; do
    run verify --boards mixed.txt --results $f
    expect "goal, unsolvable, named id: $f" 0 out "id 2: ok, 0 moves \\(opt 0\\)" out "id 4: ok, unsolvable" \
        out "id two: ok, 3 moves \\(opt 3\\)" out "4 ok, 0 wrong"
done
run_in h8.json verify --boards "$H8" --results -
expect "results from standard input" 0 out "2 ok, 0 wrong"
# Ids past ASCII as other json writers escape them (Python's json.dumps: \uXXXX, a surrogate pair
# past U+FFFF) pair with their boards (each became '?' and matched none); a \u0000 is refused.
printf '1 0 2 3 4 5 6 7 8 # id=\303\251\342\230\203\n1 0 2 3 4 5 6 7 8 # id=s\360\237\230\200\n' >uni.txt
solve_to uni.json -H md --format json uni.txt
sed -e '1s/"id":"[^"]*"/"id":"\\u00e9\\u2603"/' -e '2s/"id":"[^"]*"/"id":"s\\ud83d\\ude00"/' \
    uni.json >esc.json
run verify --boards uni.txt --results esc.json
expect "ids written as \\u escapes (a surrogate pair too) pair with their boards" 0 \
    out "2 ok, 0 wrong"
sed -e '1s/"id":"[^"]*"/"id":"x\\u0000"/' uni.json >esc.json
run verify --boards uni.txt --results esc.json
expect "  ... a \\u0000 in an id: malformed (exit 2)" 2 err "esc.json:1: a json .u escape is not a character"
run verify -q --boards "$H8" --results h8.json
expect "--quiet prints only the summary when all pass" 0 out "^verify: 2 boards"
[ "$(wc -l <out)" -eq 1 ] || { rc=99; expect "--quiet prints one line" 0; }

# Non-square and blank-last boards need the same --size / --goal as solve.
printf '1 2 0 3 4 5\n4 1 2 3 5 0  # id=bl\n' >b23.txt
solve_to b23.json -H md --size 2x3 --format json b23.txt
run verify --size 2x3 --boards b23.txt --results b23.json
expect "--size 2x3" 0 out "2 ok, 0 wrong"
printf '1 2 3 4 5 6 7 0 8  # id=last1 opt=1\n' >bl.txt
solve_to bl.json -H md --goal blank-last --format json bl.txt
run verify --goal blank-last --boards bl.txt --results bl.json
expect "--goal blank-last" 0 out "id last1: ok, 1 moves"
run verify --boards bl.txt --results bl.json
expect "blank-last answer checked against blank-first" 1 out "id last1: WRONG"

# ---- the first form: answers written in the board's comment ------------------------
# Build "TILES # id=N opt=N moves=..." lines from hardest8's json answers.
annot() {   # annot BOARDS JSON > FILE
    local i=0 line moves
    mapfile -t M < <(sed -n 's/.*"moves":"\([A-Z]*\)".*/\1/p' "$2")
    while IFS= read -r line; do
        case $line in "#"* | "") continue ;; esac
        echo "$line moves=${M[$i]}"
        i=$((i + 1))
    done <"$1"
}
annot "$H8" h8.json >h8.annot
annot k3.txt k3.json >k3.annot
run verify h8.annot k3.annot
expect "annotated boards verify" 0 out "h8.annot:1: id 1: ok, 31 moves" out "k3.annot:3: id 79: ok, 42 moves" \
    out "5 ok, 0 wrong"
run_in k3.annot verify
expect "annotated boards from standard input" 0 out "<stdin>:2: id 55: ok" out "3 ok, 0 wrong"
printf '1 0 2 3 4 5 6 7 8  # id=one moves=L length=1\n1 0 2 3 4 5 6 8 7  # id=odd status=unsolvable\n' >small.annot
run verify small.annot
expect "annotated length= and status=unsolvable" 0 out "id one: ok, 1 moves" out "id odd: ok, unsolvable"
printf '1 0 2 3 4 5 6 8 7  # id=odd status=unsolvable length=7\n' >unsl.annot
run verify unsl.annot
expect "  ... unsolvable with a length: wrong" 1 out "id odd: WRONG: answered unsolvable, yet gives length 7"
# An unsolvable board with opt= (as solve --check counts it): the answer is right, opt= is not
printf '1 0 2 3 4 5 6 8 7  # id=odd opt=3 status=unsolvable\n' >odd.annot
run verify odd.annot
expect "status=unsolvable with opt=3: wrong, opt= named, exit 1" 1 \
    out "id odd: WRONG: the board is unsolvable .*yet opt=3"

# ---- corrupted answers: exit 1, the board named, the others still ok ------------------
# corrupt_json SED_EXPR: h8.json with the second record edited, into bad.json
corrupt_json() { sed "2{$1}" h8.json >bad.json; }

corrupt_json 's/"moves":"/"moves":"UUUUUUUU/; s/"length":31/"length":39/'
run verify --boards "$H8" --results bad.json
expect "illegal move (json)" 1 out "id 1: ok" out "hardest8.txt:10 \\(bad.json:2\\): id 2: WRONG: move [1-3] \\(U\\) is illegal" \
    out "1 ok, 1 wrong"
corrupt_json 's/"moves":"\([A-Z]*\)[A-Z]"/"moves":"\1"/; s/"length":31/"length":30/'
run verify --boards "$H8" --results bad.json
expect "wrong final position (json)" 1 out "id 2: WRONG: the 30 moves end at .*, not the blank-first goal"
corrupt_json 's/"length":31/"length":30/'
run verify --boards "$H8" --results bad.json
expect "wrong length (json)" 1 out "id 2: WRONG: length 30, but the moves are 31"
corrupt_json 's/"moves":"\([A-Z]*\)"/"moves":"\1DU"/; s/"length":31/"length":33/'
run verify --boards "$H8" --results bad.json
expect "longer than opt= (json)" 1 out "id 2: WRONG: length 33, but opt=31"
run verify --weight 1.1 --boards "$H8" --results bad.json
expect "within --weight 1.1 x opt" 0 out "id 2: ok, 33 moves \\(opt 31\\)"
run verify --weight 1.05 --boards "$H8" --results bad.json
expect "beyond --weight 1.05 x opt" 1 out "id 2: WRONG: length 33 is more than 1.05 x opt=31"
# a length of exactly W x opt passes: 29 = 1.16 x 25, which doubles make 28.999999999999996 (the
# 29 moves are replayed; opt= is the comment's, verify takes it as given)
printf '3 4 1 2 6 7 5 0 8  # id=x opt=25 moves=UULDRRULLDDRUURDLLURRDLLURLRL\n' >w116.annot
run verify --weight 1.16 w116.annot
expect "a length of exactly 1.16 x opt=25 (29): within --weight 1.16" 0 out "id x: ok, 29 moves \\(opt 25\\)"
run verify --weight 1.159 w116.annot
expect "  ... beyond --weight 1.159" 1 out "id x: WRONG: length 29 is more than 1.159 x opt=25"
corrupt_json 's/"opt":31/"opt":30/'
run verify --boards "$H8" --results bad.json
expect "opt= differs between the files" 1 out "id 2: WRONG: the answer says opt=30, the board says opt=31"
# answers from boards without opt=, checked against a boards file whose opt= is wrong
sed 's/ opt=31//' "$H8" >h8noopt.txt
solve_to h8n.json -H md --format json h8noopt.txt
solve_to h8n.csv -H md --format csv h8noopt.txt
sed 's/# id=2 opt=31/# id=2 opt=33/' "$H8" >h8opt.txt
run verify --boards h8opt.txt --results h8n.json
expect "fewer moves than opt= (opt wrong)" 1 out "id 2: WRONG: 31 moves reach the goal, fewer than opt=33"
sed 's/# id=2 opt=31/# id=2 opt=29/' "$H8" >h8opt.txt
run verify --boards h8opt.txt --results h8n.csv
expect "wrong opt= (csv)" 1 out "h8opt.txt:10 \\(h8n.csv:3\\): id 2: WRONG: length 31, but opt=29"
sed '3s/,31,\([A-Z]*\)[A-Z],/,30,\1,/' h8.csv >bad.csv
run verify --boards "$H8" --results bad.csv
expect "wrong final position (csv)" 1 out "id 2: WRONG: the 30 moves end at"
sed '3s/,31,\([A-Z]*\),/,31,\1X,/' h8.csv >bad.csv
run verify --boards "$H8" --results bad.csv
expect "a letter that is not a move (csv)" 1 out "id 2: WRONG: move 32 is 'X', not a direction"
sed '3s/solved  *31 /solved 32 /; 3s/$/DU/' h8.txt >bad.txt
run verify --boards "$H8" --results bad.txt
expect "wrong length (text)" 1 out "id 2: WRONG: length 32, but the moves are 33"
sed '4s/"status":"solved"/"status":"unsolvable"/; 4s/"moves":"[A-Z]*"/"moves":""/' mixed.json >bad.json
run verify --boards mixed.txt --results bad.json
expect "a solvable board answered unsolvable" 1 out "id two: WRONG: answered unsolvable, but the board is solvable"
sed '3s/"solvable":false/"solvable":true/' mixed.json >bad.json
run verify --boards mixed.txt --results bad.json
expect "solvable=true for an unsolvable board" 1 out "id 4: WRONG: says solvable=true"
printf '1 0 2 3 4 5 6 7 8  # id=one moves=U\n1 0 2 3 4 5 6 7 8  # id=two moves=LR\n0 1 2 3 4 5 6 7 8 # id=three opt=2 moves=\n' >bad.annot
run verify bad.annot
expect "annotated: illegal, not the goal, fewer moves than opt=" 1 \
    out "bad.annot:1: id one: WRONG: move 1 \\(U\\) is illegal: the blank is at row 1, column 2 of 3 x 3" \
    out "bad.annot:2: id two: WRONG: the 2 moves end at 1 0 2 3 4 5 6 7 8, not the blank-first goal" \
    out "bad.annot:3: id three: WRONG: 0 moves reach the goal, fewer than opt=2" \
    out "^verify: 3 boards: 0 ok, 3 wrong$"
printf '1 0 2 3 4 5 6 7 8  # opt=3 moves=L\n' >bad.annot
run verify bad.annot
expect "annotated: fewer than opt=" 1 out "bad.annot:1: id 1: WRONG: 1 moves reach the goal, fewer than opt=3"
# moves= runs to the next space or the next field, commas separating moves: "moves=L,R" is two
# moves, which end one move from the goal (the comma ended the word, R was read as free text and L
# passed); "moves=L, length=1" one; in fields separated by commas, moves=LL ends at ",length="
printf '%s\n' '1 0 2 3 4 5 6 7 8  # id=a moves=L,R' '1 0 2 3 4 5 6 7 8  # id=b moves=L, length=1' \
    '1 2 0 3 4 5 6 7 8  # id=c,opt=2,moves=LL,length=2' >bad.annot
run verify bad.annot
expect "annotated: moves=L,R is two moves (wrong), moves=L, one (ok), moves=LL,length=2 two" 1 \
    out "bad.annot:1: id a: WRONG: the 2 moves end at 1 0 2 3 4 5 6 7 8" out "bad.annot:2: id b: ok, 1 moves" \
    out "bad.annot:3: id c: ok, 2 moves \\(opt 2\\)"
grep -E "id=(55)\b" "$DATA/korf100.txt" >k1.txt
run solve -q -H md --max-nodes 10 --format json k1.txt
cp out limit.json
run verify --boards k1.txt --results limit.json
expect "a limit is no answer" 1 out "k1.txt:1 \\(limit.json:1\\): id 55: NO ANSWER: status limit"
# the same in text (the bound noted after the moves) and csv (no bound column)
for f in text csv; do
    run solve -q -H md --max-nodes 10 --format $f k1.txt
    cp out limit.$f
    run verify --boards k1.txt --results limit.$f
    expect "a limit is no answer ($f)" 1 out "k1.txt:1 \\(limit.$f:2\\): id 55: NO ANSWER: status limit"
done
# Results that say two things, or more than solve writes, are malformed (exit 2), never read one
# way: the line and the field are named.
solve_to one.json -H md --format json k1.txt
solve_to one.csv -H md --format csv k1.txt
solve_to one.text -H md k1.txt
sed 's/}$/} trailing/' one.json >bad.json
run verify --boards k1.txt --results bad.json
expect "json: text after the object: exit 2" 2 err "bad.json:1: text after the json object"
sed 's/,"moves":/,"moves":"UUU","moves":/' one.json >bad.json
run verify --boards k1.txt --results bad.json
expect "json: a key given twice: exit 2" 2 err "bad.json:1: field moves: given twice"
sed 's/,"size":/ "size":/' one.json >bad.json
run verify --boards k1.txt --results bad.json
expect "json: no comma between fields: exit 2, the field named" 2 err "bad.json:1: field id: not followed by ','"
sed 's/}$/,}/' one.json >bad.json
run verify --boards k1.txt --results bad.json
expect "json: a trailing comma: exit 2" 2 err "bad.json:1: a json object ends in ','"
sed 's/}$/,"x":{"moves":"U","id":"b"}}/' one.json >bad.json
run verify --boards k1.txt --results bad.json
expect "json: a nested object: exit 2, its key named" 2 \
    err "bad.json:1: field x: a json object, not a value solve writes"
sed 's/}$/,"arr":[1,{"a":2}]}/' one.json >bad.json
run verify --boards k1.txt --results bad.json
expect "json: an array: exit 2, its key named" 2 err "bad.json:1: field arr: a json array"
sed '1s/,moves,/,moves,moves,/; 2s/,\([UDLR]*\),/,UUU,\1,/' one.csv >bad.csv
run verify --boards k1.txt --results bad.csv
expect "csv: a column given twice: exit 2" 2 err "bad.csv:2: field moves: given twice"
sed '2s/,\([UDLR]*\),/,"\1,/' one.csv >bad.csv
run verify --boards k1.txt --results bad.csv
expect "csv: a quote not closed: exit 2, its column named" 2 err "bad.csv:2: field moves: its quote is not closed"
sed '2s/,\([a-z]*\),/,"\1"x,/' one.csv >bad.csv
run verify --boards k1.txt --results bad.csv
expect "csv: text after a closing quote: exit 2, that column named" 2 err "bad.csv:2: field [a-z]*: text after its closing quote"
check "csv: text after a closing quote: not the id's column" test -z "$(grep 'field id:' err)"
sed '2s/$/ extra words/' one.text >bad.text
run verify --boards k1.txt --results bad.text
expect "text: words after the moves: exit 2" 2 err "bad.text:2: field moves: text after them"

# two boards with one id: an answer names only its id, so the pairing is ambiguous: refused by line
printf '1 0 2 3 4 5 6 7 8  # id=x\n1 2 0 3 4 5 6 7 8  # id=x\n' >dup.txt
solve_to dup.json -H md --format json dup.txt
run verify --boards dup.txt --results dup.json
expect "two boards with one id: exit 2, both lines named" 2 err "dup.txt:2: field id: 'x' is also the id of line 1"

# an id with a quote comes back from every form (json escapes it, csv quotes it)
printf '1 0 2 3 4 5 6 7 8  # id=say"hi opt=1\n' >quote.txt
for f in text json csv; do
    solve_to quote.$f -H md --format $f quote.txt
    run verify --boards quote.txt --results quote.$f
    expect "an id with a quote ($f)" 0 out 'id say"hi: ok, 1 moves \(opt 1\)'
done

# ---- bad input and usage: exit 2 (3 for a missing file), FILE:LINE: field ----------------
run verify --boards "$H8" --results k3.json
expect "results of other boards" 2 err "hardest8.txt:9: field id: no answer in .*k3.json for the board with id 1" err "k3.json:1: field id: '42' matches no board"
head -1 h8.json >short.json
run verify --boards "$H8" --results short.json
expect "fewer answers than boards" 2 err "short.json:1: field count: 1 answer lines for the 2 boards"
: >none.json
run verify --boards "$H8" --results none.json
expect "no answers at all: each board named, no count at a line 0 (exit 2)" 2 \
    err "hardest8.txt:10: field id: no answer in none.json for the board with id 2"
check "  ... and no 'none.json:0:' line" eval '! grep -q "none.json:0:" err'
{ cat h8.json; sed -n 1p h8.json; } >long.json
run verify --boards "$H8" --results long.json
expect "more answers than boards" 2 err "field count: 3 answer lines for the 2 boards"
# edited NAME SED RC PATTERN: h8.json's second answer edited by the sed -E script SED, verified:
# exit RC, PATTERN on stderr (exit 2) or stdout
edited() {
    sed -E "$2" h8.json >bad.json
    run verify --boards "$H8" --results bad.json
    if [ "$3" = 2 ]; then expect "$1" 2 err "$4"; else expect "$1" "$3" out "$4"; fi
}
edited "a quoted length" '2s/"length":31/"length":"x"/' 2 \
    "bad.json:2: field length: a json string, not the literal solve writes"
edited "  ... \"31\" too (a string is no length)" '2s/"length":31/"length":"31"/' 2 \
    "bad.json:2: field length: a json string"
edited "a length that is no json value" '2s/"length":31/"length":3x1/' 2 \
    "bad.json:2: field length: '3x1' is not a json value"
edited "a missing ',' after a field verify does not read" '2s/("nodes_expanded":[0-9]+),/\1/' 2 \
    "bad.json:2: field nodes_expanded: '[0-9]+\"nodes_generated\".*' is not a json value"
edited "a raw tab inside a json string" '2s/"size":"3x3"/"size":"3x3\t"/' 2 \
    "bad.json:2: a json string holds a control character"
edited "a byte that is not UTF-8 inside a json string" '2s/"size":"3x3"/"size":"3x3\xb0"/' 2 \
    "bad.json:2: a json string is not valid UTF-8"
edited "solvable as a string" '2s/"solvable":true/"solvable":"true"/' 2 \
    "bad.json:2: field solvable: a json string"
edited "moves null (not moves \"null\")" '2s/"moves":"[A-Z]*"/"moves":null/' 2 \
    "bad.json:2: field moves: a json literal, not the string"
# the text table's column heads are no json keys: "len" is not read as the length
edited "a json key \"len\" (a text column head): not read" '2s/"length":31/"length":31,"len":"x"/' 0 \
    "2 ok, 0 wrong"
head -c 120 h8.json >bad.json
run verify --boards "$H8" --results bad.json
expect "broken json" 2 err "bad.json:1: a json string is not closed"
printf 'not,a,result\n' >bad.csv
run verify --boards "$H8" --results bad.csv
expect "not solve's output" 2 err "bad.csv:1: field 1: not solve's output"
printf '1 0 2 3 4 5 6 7 8  # id=one\n1 0 2 3 4 5 6 7 9  # moves=L\n' >bad.annot
run verify bad.annot
expect "annotated: no moves=, bad tile" 2 err "bad.annot:1: field moves: missing" \
    err "bad.annot:2: field 9: tile 9 is out of range"
printf '1 0 2 3 4 5 6 7 8  # moves=L length=x\n' >bad.annot
run verify bad.annot
expect "annotated: malformed length=" 2 err "bad.annot:1: field length: 'x' is malformed"
printf '1 0 2 3 4 5 6 7 8  # moves=U moves=L\n' >bad.annot
run verify bad.annot
expect "annotated: moves= given twice: malformed, exit 2" 2 err "bad.annot:1: field moves: given twice"
printf '1 0 2 3 4 5 6 7 8\0 # moves=L\n' >nul.annot
run verify nul.annot
expect "a NUL byte" 2 err "nul.annot:1: field 9: the line holds a NUL byte"
{ cat "$H8"; printf '1 0 2\0 3 4 5 6 7 8\n'; } >nul_boards.txt
run verify --boards nul_boards.txt --results h8.json
expect "--boards: a NUL byte" 2 err "^nul_boards\.txt:[0-9]+: field 3: the line holds a NUL byte" \
    out "2 ok, 0 wrong, 1 malformed input line$"
{ sed -n 1p h8.json; printf '{"id":"2"\0}\n'; } >nul_results.json
run verify --boards "$H8" --results nul_results.json
expect "--results: a NUL byte, its column named" 2 \
    err "^nul_results\.json:2: column 10: the line holds a NUL byte"
for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25; do
    echo "1 0 2 3 4 5 6 7 8  # id=b$i"
done >many.annot
run verify many.annot
expect "25 malformed lines: the first 20 reported, then '... and 5 more'" 2 \
    err "^many\.annot:20: field moves: missing" err "^\.\.\. and 5 more malformed lines$" \
    out "0 boards: 0 ok, 0 wrong, 25 malformed input lines$"
check "25 malformed lines: only 20 of them reported" \
    test "$(grep -c 'field moves: missing' err)" = 20
run verify --boards "$H8"
expect "--boards without --results" 2 err "go together"
run verify --weight 0.5 h8.annot
expect "bad --weight" 2 err "--weight"
run verify --bogus
expect "unknown option" 2 err "unknown option '--bogus'"
run verify --boards "$H8" --results does-not-exist.json
expect "missing results file" 3 err "cannot open does-not-exist.json"
# ---- shards (solve --shard K/N, for job arrays) -------------------------------------------------
# 20 boards (8-puzzle and Korf's 42, 55, 79 mixed, some without id=: their line numbers): the three
# shards together are the unsharded run, board for board; concatenated in any order, they verify.
run random --size 3x3 -n 17 --seed 11
{ grep -v '^#' out; cat k3.txt; } | sed -E '3s/#.*//; 8s/#.*//; s/id=([0-9]+)$/id=r\1/' >mix.txt
for k in 1 2 3; do
    solve_to shard$k.json -H lc --format json --shard $k/3 mix.txt
done
solve_to whole.json -H lc --format json mix.txt
# (seconds and nodes_extra, the split search's work beyond the serial count, vary from run to run)
strip() { sed -E 's/"(seconds|nodes_extra)":[0-9.e+-]+,?//g' "$@" | sort; }
check "--shard 1..3 of 3: the union is the unsharded run, board for board" \
    cmp -s <(strip shard1.json shard2.json shard3.json) <(strip whole.json)
check "--shard: each shard holds every third board" \
    test "$(grep -c . shard1.json)" -eq 7 -a "$(grep -c . shard2.json)" -eq 7 -a "$(grep -c . shard3.json)" -eq 6
cat shard3.json shard1.json shard2.json >shards.json
run verify --boards mix.txt --results shards.json
expect "shards concatenated (json, out of order) verify against the whole input" 0 out "20 ok, 0 wrong"
for f in text csv; do
    for k in 1 2 3; do
        solve_to shard$k.$f -H lc --format $f --shard $k/3 mix.txt
    done
    cat shard2.$f shard3.$f shard1.$f >shards.$f
    run verify --boards mix.txt --results shards.$f
    expect "shards concatenated ($f, headers repeated) verify" 0 out "20 ok, 0 wrong"
done
head -n 13 shards.json >part.json
run verify --boards mix.txt --results part.json
expect "a shard missing: the boards without an answer named" 2 err "mix.txt:[0-9]+: field id: no answer in .*part.json"
run solve -q --shard 4/3 mix.txt
expect "--shard 4/3 refused" 2 err "--shard: '4/3' is not K/N"
# numbers that overflow an int must not wrap around into a valid shard (2^32 + 2 is 2 mod 2^32)
for v in 4294967298/4294967298 1/99999999999 -1/3 1/2x; do
    run solve -q --shard "$v" mix.txt
    expect "--shard $v refused" 2 err "--shard: '$v' is not K/N"
done

run verify --help
expect "--help" 0 out "usage: npuzzle verify"
run help verify
expect "help verify" 0 out "--results FILE"

cli_summary
