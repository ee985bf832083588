#!/usr/bin/env bash
# cli_pdb.sh - end-to-end tests of `npuzzle gen` and `npuzzle info`: files, encodings, faults, exit codes.
# usage: cli_pdb.sh NPUZZLE_BINARY
set -u
NP=${1:?usage: cli_pdb.sh NPUZZLE_BINARY}
. "$(dirname "$0")/cli_lib.sh"
cli_start_quiet

# ok, bad, expect_rc WANT DESCRIPTION CMD... and expect_grep PATTERN FILE DESCRIPTION: cli_lib.sh

A="$T/a"
F1="$A/3x3-bf-1.2.3.4.pdb"
F2="$A/3x3-bf-5.6.7.8.pdb"

# ---- gen the 8-puzzle partition -------------------------------------------
expect_rc 0 "gen 8:4-4" "$NP" gen --partition 8:4-4 --pdb-dir "$A" -j 1 --quiet
[ -f "$F1" ] && [ -f "$F2" ] && ok || bad "gen 8:4-4 did not write $F1 and $F2"
expect_grep "$F1" "$T/out" "gen summary names the files"
[ -s "$T/err" ] && bad "--quiet printed on stderr: $(cat "$T/err")" || ok
# nothing else (no temporary leftovers)
[ "$(ls -A "$A" | wc -l)" -eq 2 ] && ok || bad "unexpected files in $A: $(ls -A "$A")"

# ---- info, text and json ----------------------------------------------------
expect_rc 0 "info text" "$NP" info "$F1"
expect_grep "entries: *3024" "$T/out" "info text entries"
expect_grep "checksum: *ok" "$T/out" "info text checksum"
expect_grep "3x3" "$T/out" "info text board"
expect_grep "1,2,3,4" "$T/out" "info text tiles"
expect_grep "histogram" "$T/out" "info text histogram"
expect_rc 0 "info json -j 1" "$NP" info --format json -j 1 "$F1"
cp "$T/out" "$T/info-j1.json"
expect_rc 0 "info json" "$NP" info --format json "$F1"
cmp -s "$T/out" "$T/info-j1.json" && ok || bad "info -j 1 and the default threads differ"
[ "$(wc -l <"$T/out")" -eq 1 ] && ok || bad "info json is not one line"
expect_grep '"entries":3024' "$T/out" "json entries"
expect_grep '"rows":3,"cols":3' "$T/out" "json rows/cols"
expect_grep '"tiles":\[1,2,3,4\]' "$T/out" "json tiles"
expect_grep '"checksum_ok":true' "$T/out" "json checksum_ok"
expect_grep '"encoding":"4bit"' "$T/out" "json encoding (4-bit chosen automatically)"
expect_grep '"histogram":{"0":1,' "$T/out" "json histogram (one goal placement at 0)"
expect_grep '"max":' "$T/out" "json max"
expect_grep '"mean":' "$T/out" "json mean"
if command -v python3 >/dev/null; then
    if python3 - "$T/out" <<'EOF'
import json, sys
o = json.load(open(sys.argv[1]))
h = {int(k): v for k, v in o["histogram"].items()}
assert sum(h.values()) == o["entries"] == 3024, "histogram total"
assert max(h) == o["max"], "max"
assert abs(sum(k * v for k, v in h.items()) / 3024 - o["mean"]) < 1e-4, "mean"
assert o["rows"] == 3 and o["cols"] == 3 and o["tiles"] == [1, 2, 3, 4]
EOF
    then ok; else bad "info json does not parse or does not add up"; fi
fi

# json is UTF-8: a file name's byte that is not (0xff here) is written as U+FFFD, an é as it is
U8="$T/u8-$(printf '\xff')-é.pdb"
cp "$F1" "$U8"
expect_rc 0 "info json, a file name not in UTF-8" "$NP" info --format json "$U8"
expect_grep '"file":"[^"]*u8-\\ufffd-é\.pdb"' "$T/out" "json file: 0xff as \\ufffd, é kept"
LC_ALL=C grep -q "$(printf '\xff')" "$T/out" && bad "json holds the raw byte 0xff" || ok
rm -f "$U8"

# ---- -j1 and -j2 give byte-identical files, in both encodings ---------------
B="$T/b"
expect_rc 0 "gen -j 2" "$NP" gen --partition 8:4-4 --pdb-dir "$B" -j 2 --quiet
cmp -s "$F1" "$B/3x3-bf-1.2.3.4.pdb" && cmp -s "$F2" "$B/3x3-bf-5.6.7.8.pdb" && ok ||
    bad "-j 1 and -j 2 files differ"
C1="$T/c1"
C2="$T/c2"
expect_rc 0 "gen --8bit -j 1" "$NP" gen --partition 8:4-4 --pdb-dir "$C1" -j 1 --8bit --quiet
expect_rc 0 "gen --8bit -j 2" "$NP" gen --partition 8:4-4 --pdb-dir "$C2" -j 2 --8bit --quiet
cmp -s "$C1/3x3-bf-1.2.3.4.pdb" "$C2/3x3-bf-1.2.3.4.pdb" && ok || bad "8-bit -j 1 and -j 2 files differ"
expect_rc 0 "info 8-bit" "$NP" info --format json "$C1/3x3-bf-1.2.3.4.pdb"
expect_grep '"encoding":"8bit"' "$T/out" "json encoding 8bit"
# the same histogram whatever the encoding
"$NP" info --format json "$F1" | sed 's/.*"histogram"//' >"$T/h4"
"$NP" info --format json "$C1/3x3-bf-1.2.3.4.pdb" | sed 's/.*"histogram"//' >"$T/h8"
cmp -s "$T/h4" "$T/h8" && ok || bad "4-bit and 8-bit histograms differ"

# ---- existing valid files are kept without --force --------------------------
touch -d '2001-01-01 00:00:00' "$F1"
before=$(stat -c %Y "$F1")
expect_rc 0 "gen again" "$NP" gen --partition 8:4-4 --pdb-dir "$A" --quiet
[ "$(stat -c %Y "$F1")" = "$before" ] && ok || bad "existing file rewritten without --force"
expect_grep "kept" "$T/out" "summary says kept"
expect_rc 0 "gen --force" "$NP" gen --partition 8:4-4 --pdb-dir "$A" --quiet --force
[ "$(stat -c %Y "$F1")" != "$before" ] && ok || bad "--force did not rewrite"
cmp -s "$F1" "$B/3x3-bf-1.2.3.4.pdb" && ok || bad "--force output differs"

# ---- --compress: the .zst alone loads (through info) -------------------------
Z="$T/z"
expect_rc 0 "gen --compress" "$NP" gen --partition 8:4-4 --pdb-dir "$Z" --compress --quiet
[ -f "$Z/3x3-bf-1.2.3.4.pdb.zst" ] && ok || bad "--compress wrote no .zst"
expect_grep "zst" "$T/out" "summary names the .zst"
expect_rc 0 "gen --compress=3 keeps files" "$NP" gen --partition 8:4-4 --pdb-dir "$Z" --compress=3 --quiet
rm -f "$Z/3x3-bf-1.2.3.4.pdb"
expect_rc 0 "info after deleting the .pdb" "$NP" info --format json "$Z/3x3-bf-1.2.3.4.pdb"
expect_grep '"entries":3024' "$T/out" "info of the unpacked .zst"
cmp -s "$Z/3x3-bf-1.2.3.4.pdb" "$F1" && ok || bad "unpacked .zst differs from the original"
rm -f "$Z/3x3-bf-1.2.3.4.pdb"
expect_rc 0 "info FILE.pdb.zst" "$NP" info "$Z/3x3-bf-1.2.3.4.pdb.zst"
# a damaged .zst is refused by name and leaves no .pdb
rm -f "$Z/3x3-bf-5.6.7.8.pdb"
zs=$(stat -c %s "$Z/3x3-bf-5.6.7.8.pdb.zst")
printf '\xff\xff\xff\xff' | dd of="$Z/3x3-bf-5.6.7.8.pdb.zst" bs=1 seek=$((zs / 2)) conv=notrunc 2>/dev/null
expect_rc 3 "info damaged .zst" "$NP" info "$Z/3x3-bf-5.6.7.8.pdb"
expect_grep "3x3-bf-5.6.7.8.pdb.zst" "$T/err" "damaged .zst message names the file"
[ ! -e "$Z/3x3-bf-5.6.7.8.pdb" ] && ok || bad "damaged .zst left a .pdb"

# a .pdb.zst named to info is checked against the .pdb beside it
cp "$Z/3x3-bf-1.2.3.4.pdb.zst" "$T/good.zst"
head -c 400 "$T/good.zst" >"$Z/3x3-bf-1.2.3.4.pdb.zst"
cp "$F1" "$Z/3x3-bf-1.2.3.4.pdb"
expect_rc 3 "info FILE.pdb.zst, truncated, beside a good .pdb" "$NP" info "$Z/3x3-bf-1.2.3.4.pdb.zst"
expect_grep "3x3-bf-1.2.3.4.pdb.zst" "$T/err" "the truncated .zst is named"
# gen --compress writes a .zst again when the one beside a kept table does not unpack to it
expect_rc 0 "gen --compress with a bad .zst beside a kept table" \
    "$NP" gen --partition 8:4-4 --pdb-dir "$Z" --compress
expect_grep "compressing it again" "$T/err" "the bad .zst is said and written again"
expect_rc 0 "the .zst written again unpacks to its table" "$NP" info "$Z/3x3-bf-1.2.3.4.pdb.zst"
# a table rebuilt without --compress: the .zst beside it, of the table before, is removed (left, it
# would be unpacked for the new table once the .pdb is gone), and not shown as the new one's
expect_rc 0 "gen --force --8bit, no --compress, over a compressed table" \
    "$NP" gen --partition 8:4-4 --pdb-dir "$Z" --force --8bit
expect_grep "removed .*3x3-bf-1.2.3.4.pdb.zst" "$T/err" "  ... the old .zst removed, and said"
[ ! -e "$Z/3x3-bf-1.2.3.4.pdb.zst" ] && ok || bad "  ... the old .zst is still there"
grep -q 'zst' "$T/out" && bad "  ... the summary still shows a .zst" || ok
# the same for a .zst of another table standing at the name of one that is built
rm -f "$Z"/*.pdb
cp "$T/good.zst" "$Z/3x3-bf-5.6.7.8.pdb.zst"
expect_rc 0 "gen with another table's .zst at a table's name" "$NP" gen --partition 8:4-4 --pdb-dir "$Z" --quiet
expect_grep "removed .*3x3-bf-5.6.7.8.pdb.zst" "$T/err" "  ... the foreign .zst removed, and said"
expect_rc 0 "  ... the table built is its own" "$NP" info "$Z/3x3-bf-5.6.7.8.pdb"
# SIGINT while a table is compressed (one thread; the 3x4 table of 8 tiles, 9.5 MiB, takes seconds
# at level 22): stopped, exit 130, the table kept, no .zst and no temporary file
ZI="$T/zint"
"$NP" gen --size 3x4 --pattern 1,2,3,4,5,6,7,8 -j 1 --pdb-dir "$ZI" --quiet >/dev/null 2>&1
"$NP" gen --size 3x4 --pattern 1,2,3,4,5,6,7,8 -j 1 --pdb-dir "$ZI" --compress=22 >"$T/out" 2>"$T/err" &
zpid=$!
for _ in $(seq 200); do grep -q compressing "$T/err" && break; sleep 0.05; done
sleep 0.3
kill -INT $zpid
wait $zpid
zrc=$?
[ "$zrc" -eq 130 ] && ok || bad "SIGINT while compressing: exit $zrc, want 130"
expect_grep "interrupted; .*3x4-bf-1.2.3.4.5.6.7.8.pdb written, .*\.zst not" "$T/err" \
    "SIGINT while compressing: said, the table written and the .zst not"
[ -z "$(ls -A "$ZI" | grep -vx '3x4-bf-1.2.3.4.5.6.7.8.pdb')" ] && ok ||
    bad "SIGINT while compressing left: $(ls -A "$ZI" | tr '\n' ' ')"
# a zstd stream that is no table (here 64 MiB of zeros) is refused at its header, unpacking nothing more
if command -v zstd >/dev/null; then
    mkdir -p "$T/zz"
    head -c 64M /dev/zero | zstd -q -19 -o "$T/zz/3x3-bf-1.2.3.4.pdb.zst"
    expect_rc 3 "a .pdb.zst of zeros: refused" "$NP" info "$T/zz/3x3-bf-1.2.3.4.pdb.zst"
    expect_grep "bad magic" "$T/err" "a .pdb.zst of zeros: its header is what is refused"
    [ -z "$(ls -A "$T/zz" | grep -v '\.zst$')" ] && ok || bad "a .pdb.zst of zeros left a file"
fi
# a stale temporary file of a dead writer (SIGKILL) goes when the table is written again
stale="$A/.3x3-bf-1.2.3.4.pdb.tmp.2147483646.abcdef"
fresh="$A/.3x3-bf-1.2.3.4.pdb.tmp.2147483645.ghijkl"
: >"$stale"
: >"$fresh"
touch -d '1 hour ago' "$stale"
expect_rc 0 "gen --force beside stale temporary files" "$NP" gen --partition 8:4-4 --pdb-dir "$A" -j 1 --force --quiet
[ ! -e "$stale" ] && ok || bad "a dead writer's temporary file, an hour old, was left"
[ -e "$fresh" ] && ok || bad "a recent temporary file was removed (its writer may be alive elsewhere)"
rm -f "$fresh"

# ---- corrupt files: exit 3, message names the file ---------------------------
K="$T/k"
mkdir -p "$K"
cp "$F2" "$K/flip.pdb"
printf '\x55' | dd of="$K/flip.pdb" bs=1 seek=5000 conv=notrunc 2>/dev/null
# a byte between the header and the payload, which no checksum covers
cp "$F2" "$K/pad.pdb"
printf '\x01' | dd of="$K/pad.pdb" bs=1 seek=300 conv=notrunc 2>/dev/null
expect_rc 3 "info: a padding byte not zero" "$NP" info "$K/pad.pdb"
expect_grep "byte 300, between the header and the payload" "$T/err" "the padding byte is named"
# a FIFO in a table's place is refused, not waited on
mkfifo "$K/fifo.pdb"
expect_rc 3 "info on a FIFO: refused at once" timeout 20 "$NP" info "$K/fifo.pdb"
expect_grep "not a regular file" "$T/err" "a FIFO: not a regular file"
rm -f "$K/fifo.pdb"
expect_rc 3 "info flipped payload byte" "$NP" info "$K/flip.pdb"
expect_grep "$K/flip.pdb" "$T/err" "checksum message names the file"
expect_grep "checksum" "$T/err" "checksum message"
expect_rc 3 "info json flipped" "$NP" info --format json "$K/flip.pdb"
expect_grep '"checksum_ok":false' "$T/out" "json checksum_ok false"
head -c 100 "$F2" >"$K/short.pdb"
expect_rc 3 "info truncated header" "$NP" info "$K/short.pdb"
expect_grep "$K/short.pdb.*truncated" "$T/err" "truncated message names the file"
head -c 5000 "$F2" >"$K/shortpay.pdb"
expect_rc 3 "info truncated payload" "$NP" info "$K/shortpay.pdb"
expect_grep "truncated payload" "$T/err" "truncated payload message"
echo "not a pdb" >"$K/text.pdb"
expect_rc 3 "info text file" "$NP" info "$K/text.pdb"
expect_grep "$K/text.pdb" "$T/err" "bad magic names the file"
expect_rc 3 "info missing file" "$NP" info "$K/nothing.pdb"
expect_grep "$K/nothing.pdb" "$T/err" "missing file named"
# a corrupt file in the PDB directory is rebuilt by gen, not kept
cp "$K/flip.pdb" "$A/3x3-bf-5.6.7.8.pdb"
expect_rc 0 "gen over a corrupt file" "$NP" gen --partition 8:4-4 --pdb-dir "$A" --quiet
cmp -s "$A/3x3-bf-5.6.7.8.pdb" "$B/3x3-bf-5.6.7.8.pdb" && ok || bad "corrupt file was not rebuilt"

# ---- --dry-run writes nothing ----------------------------------------------
D="$T/dry"
expect_rc 0 "gen --dry-run" "$NP" gen --partition 8:4-4 --pdb-dir "$D" --dry-run
[ ! -e "$D" ] && ok || bad "--dry-run created $D"
expect_grep "3x3-bf-1.2.3.4.pdb" "$T/out" "dry run names the file"
expect_grep "3024 entries" "$T/out" "dry run gives the entries"
# a directory at a table's .zst name is no .zst to unpack: the dry run plans a build, as the run does
mkdir -p "$T/dzst/3x3-bf-1.2.3.4.pdb.zst"
expect_rc 0 "gen --dry-run, a directory at the .zst's name" \
    "$NP" gen --partition 8:4-4 --pdb-dir "$T/dzst" --dry-run
expect_grep "^build .*3x3-bf-1.2.3.4.pdb" "$T/out" "  ... planned as a build, not an unzst"
# a directory the run could not create (under a regular file): the dry run says so too
touch "$T/plainfile"
expect_rc 3 "gen --dry-run under a regular file: exit 3, as the run" \
    "$NP" gen --partition 8:4-4 --pdb-dir "$T/plainfile/sub" --dry-run
expect_grep "cannot create the PDB directory .*plainfile/sub: Not a directory" "$T/err" \
    "  ... the directory and the reason named"
# (exit 0, or 3 where the machine has too little memory for the 8-tile pattern)
"$NP" gen --partition 15:7-8 --pdb-dir "$D" --dry-run --quiet >"$T/out" 2>"$T/err"
rc=$?
[ $rc -eq 0 ] || [ $rc -eq 3 ] && ok || bad "gen --dry-run 15:7-8: exit $rc"
expect_grep "57657600 entries" "$T/out" "dry run 15:7-8 pattern of 7"
expect_grep "518918400 entries" "$T/out" "dry run 15:7-8 pattern of 8"
[ ! -e "$D" ] && ok || bad "--dry-run created $D"

# a pattern whose placements 64 bits cannot count (64!/52! = 1.57e21 with the blank): refused with
# that count, not as a table of 0 entries
expect_rc 3 "gen --dry-run of 11 tiles on 8x8" "$NP" gen --size 8x8 --pattern 1,2,3,4,5,6,7,8,9,10,11 \
    --pdb-dir "$D" --dry-run --quiet
expect_grep "1.57e+21 placements" "$T/err" "  ... the count of placements said"
expect_grep "NOFIT .*: more placements than 64 bits count" "$T/out" "  ... and the dry run's line says so"
[ ! -e "$D" ] && ok || bad "--dry-run created $D"

# ---- memory limits: exit 3 with a message -------------------------------------
expect_rc 3 "gen --max-memory too small" "$NP" gen --partition 8:4-4 --pdb-dir "$T/m" --max-memory 1K --quiet
expect_grep "max-memory" "$T/err" "memory refusal names the limit"
[ ! -e "$T/m/3x3-bf-1.2.3.4.pdb" ] && ok || bad "refused gen wrote a file"
expect_rc 0 "gen --max-memory --dry-run" "$NP" gen --partition 8:4-4 --pdb-dir "$T/m" --max-memory 1G --dry-run
expect_grep "available .*, --max-memory 1.00 GiB" "$T/err" "the size line shows the limit given, not the table's size"
# a limit on the address space (ulimit -v) counts: the 4x4 table of 7 tiles (110 MiB to build) under
# one that leaves less is refused with the figures, before any allocation, no file left
if ldd "$NP" 2>/dev/null | grep -q 'libasan'; then
    skip "gen under ulimit -v: AddressSanitizer reserves terabytes of address space"
elif (ulimit -v 120000 2>/dev/null); then
    (ulimit -v 120000; "$NP" gen --size 4x4 --pattern 1,2,3,4,5,6,7 --pdb-dir "$T/ul" -j 1 --quiet) \
        >"$T/out" 2>"$T/err"
    urc=$?
    [ "$urc" -eq 3 ] && ok || bad "gen under ulimit -v 120000: exit $urc, want 3"
    expect_grep "pattern 1,2,3,4,5,6,7 needs 109.97 MiB but only [0-9.]* [KM]iB is available" "$T/err" \
        "  ... the need and what the limit leaves named"
    [ -z "$(ls -A "$T/ul" 2>/dev/null)" ] && ok || bad "  ... gen under ulimit -v left files"
fi

# ---- custom patterns, other boards and goals -----------------------------------
expect_rc 0 "gen --pattern" "$NP" gen --size 3x3 --pattern 2,1/7 --pdb-dir "$T/p" --goal blank-last --quiet
[ -f "$T/p/3x3-bl-1.2.pdb" ] && [ -f "$T/p/3x3-bl-7.pdb" ] && ok || bad "gen --pattern files: $(ls "$T/p")"
expect_rc 0 "info blank-last" "$NP" info --format json "$T/p/3x3-bl-1.2.pdb"
expect_grep '"goal":"blank-last"' "$T/out" "json goal"
expect_grep '"entries":72' "$T/out" "2 tiles on 9 cells"
expect_rc 0 "gen 2x3" "$NP" gen --size 2x3 --pattern 1,2,3 --pdb-dir "$T/p" --quiet
expect_grep "2x3-bf-1.2.3.pdb" "$T/out" "2x3 file"

# ---- progress output --------------------------------------------------------
expect_rc 0 "gen progress lines" "$NP" gen --size 3x3 --pattern 1,2 --pdb-dir "$T/q" --force
expect_grep "depth" "$T/err" "progress lines on stderr"
expect_grep "entries" "$T/err" "sizes on stderr"
expect_grep "; available [0-9.]* [KMGT]iB" "$T/err" "the memory available on stderr"
expect_rc 0 "gen --progress bar" "$NP" gen --size 3x3 --pattern 1,2 --pdb-dir "$T/q" --force --progress
expect_grep $'\r' "$T/err" "bar redraws with carriage returns"

# ---- bad usage: exit 2 --------------------------------------------------------
expect_rc 2 "unknown option" "$NP" gen --bogus
expect_grep "bogus" "$T/err" "unknown option named"
expect_rc 2 "bad size" "$NP" gen --size 3y3 --dry-run
expect_rc 2 "unknown partition" "$NP" gen --partition 15:9-9 --dry-run
expect_grep "15:9-9" "$T/err" "unknown partition named"
expect_rc 2 "partition for another board" "$NP" gen --size 3x3 --partition 15:7-8 --dry-run
expect_rc 2 "overlapping pattern" "$NP" gen --size 3x3 --pattern 1,2/2,3 --dry-run
expect_grep "tile 2" "$T/err" "overlap message"
expect_rc 2 "blank in pattern" "$NP" gen --size 3x3 --pattern 0,1 --dry-run
expect_rc 2 "tile off the board" "$NP" gen --size 3x3 --pattern 1,9 --dry-run
expect_rc 2 "pattern too large" "$NP" gen --size 2x2 --pattern 1,2,3 --dry-run
# solve refuses it too, with --gen or without (not "not found", with a gen command that fails)
printf '1 0 2 3 4 5\n' >"$T/b32.txt"
expect_rc 2 "solve: pattern too large" "$NP" solve --size 3x2 -H pdb --partition 5/1,2,3,4 \
    --pdb-dir "$T/none" "$T/b32.txt"
has "pattern 2 of the partition has 4 tiles; at most 3 on a 3x2 board" "$T/err" "names the pattern and the limit"
expect_rc 2 "solve --gen: pattern too large" "$NP" solve --size 3x2 -H pdb --partition 5/1,2,3,4 \
    --pdb-dir "$T/none" --gen "$T/b32.txt"
# and with the default heuristic, which would fall back to linear conflict were the tables merely
# missing: such a partition has no tables to build
expect_rc 2 "solve, tables not required: pattern too large" "$NP" solve --size 3x2 \
    --partition 5/1,2,3,4 --pdb-dir "$T/none" "$T/b32.txt"
has "b32.txt:1: pattern 2 of the partition has 4 tiles" "$T/err" "  ... named, by file and line"
expect_rc 2 "both --partition and --pattern" "$NP" gen --partition 8:4-4 --pattern 1,2 --dry-run
# a partition covers its board, as solve needs; --pattern builds a part of one
expect_rc 2 "partition that misses tiles" "$NP" gen --size 3x3 --partition 1,2/3,4 --dry-run
has "npuzzle gen: --partition 1,2/3,4: tile 5 is in no pattern" "$T/err" "names the option and the missing tile"
has "; --pattern builds only some patterns" "$T/err" "points to --pattern"
expect_rc 0 "the same tiles as --pattern" "$NP" gen --size 3x3 --pattern 1,2/3,4 --dry-run
expect_rc 2 "bad -j" "$NP" gen -j 0 --dry-run
expect_rc 2 "bad -j text" "$NP" gen -j x --dry-run
expect_rc 2 "bad --compress level" "$NP" gen --compress=99 --dry-run
# ---- zero-aware tables -------------------------------------------------------
Z="$T/za"
ZF1="$Z/3x3-bf-1.2.3.4-z.pdb"
expect_rc 0 "gen --zero-aware --dry-run" "$NP" gen --partition 8:4-4 --zero-aware --dry-run --pdb-dir "$Z"
expect_grep "build $ZF1: 3024 entries, file .* (zero-aware)" "$T/out" "dry run plans the zero-aware table"
expect_rc 0 "gen --zero-aware" "$NP" gen --partition 8:4-4 --zero-aware --pdb-dir "$Z" -j 1 --quiet
[ "$(ls -A "$Z" | wc -l)" -eq 4 ] && ok || bad "gen --zero-aware: want 4 files, got $(ls -A "$Z")"
expect_grep "$ZF1  4bit+za" "$T/out" "the summary names the zero-aware file and its encoding"
expect_rc 0 "info on a zero-aware table" "$NP" info --format json "$ZF1"
expect_grep '"encoding":"4bit+za"' "$T/out" "info: zero-aware encoding"
expect_grep '"checksum_ok":true' "$T/out" "info: zero-aware checksum"
# its values are the plain table's: the same histogram
"$NP" info --format json "$Z/3x3-bf-1.2.3.4.pdb" | grep -o '"histogram":{[^}]*}' >"$T/h1"
grep -o '"histogram":{[^}]*}' "$T/out" >"$T/h2"
cmp -s "$T/h1" "$T/h2" && ok || bad "zero-aware and plain histograms differ: $(cat "$T/h1" "$T/h2")"
[ "$(stat -c %s "$ZF1")" -eq $((4096 + 3024)) ] && ok || bad "zero-aware file size $(stat -c %s "$ZF1")"
expect_rc 0 "gen --zero-aware again" "$NP" gen --partition 8:4-4 --zero-aware --pdb-dir "$Z" -j 1 --quiet
expect_grep "$ZF1  4bit+za .*kept" "$T/out" "a valid zero-aware table is kept"
# a plain table under the zero-aware name is rebuilt, not kept
cp "$Z/3x3-bf-1.2.3.4.pdb" "$ZF1"
expect_rc 0 "gen --zero-aware over a plain table" "$NP" gen --partition 8:4-4 --zero-aware --pdb-dir "$Z" -j 1
expect_grep "rebuilding.*not the zero-aware encoding" "$T/err" "says why it rebuilds"
"$NP" info --format json "$ZF1" | grep -q '"encoding":"4bit+za"' && ok || bad "not rebuilt as zero-aware"

expect_rc 2 "bad --max-memory" "$NP" gen --max-memory 12Q --dry-run
expect_rc 2 "--max-memory 0 (no memory at all, not the default)" "$NP" gen --max-memory 0 --dry-run
expect_rc 2 "bad --goal" "$NP" gen --goal sideways --dry-run
expect_rc 2 "stray argument" "$NP" gen stray --dry-run
expect_rc 2 "missing value" "$NP" gen --partition
expect_rc 2 "info without file" "$NP" info
expect_rc 2 "info bad format" "$NP" info --format xml "$F1"
expect_rc 2 "info two files" "$NP" info "$F1" "$F2"
expect_rc 0 "gen --help" "$NP" gen --help
expect_grep "usage: npuzzle gen" "$T/out" "gen usage"
expect_rc 0 "help info" "$NP" help info
expect_grep "usage: npuzzle info" "$T/out" "info usage"

[ ! -e "$XDG_CACHE_HOME" ] && ok || bad "something was written to the default cache directory"

# ---- where the tables go: --pdb-dir, else $NPUZZLE_PDB_DIR, else $XDG_CACHE_HOME/npuzzle, else
# ~/.cache/npuzzle; solve looks in the same place (each in a subshell of its own environment)
W="$T/where"
B4="3x3-bf-1.2.3.4.pdb"
(
    unset NPUZZLE_PDB_DIR
    export XDG_CACHE_HOME="$W/xdg" HOME="$W/home"
    "$NP" gen --partition 8:4-4 -j 1 --quiet >/dev/null 2>&1
)
[ -f "$W/xdg/npuzzle/$B4" ] && [ ! -e "$W/home" ] && ok || bad "no NPUZZLE_PDB_DIR: not written to \$XDG_CACHE_HOME/npuzzle"
(
    unset NPUZZLE_PDB_DIR
    export XDG_CACHE_HOME="$W/xdg" HOME="$W/home"
    "$NP" solve -H pdb -f csv -q <<<"1 2 5 3 4 0 6 7 8"
) >"$T/out" 2>"$T/err"
expect_grep ",solved,true,3," "$T/out" "solve -H pdb finds the tables in \$XDG_CACHE_HOME/npuzzle"
(
    unset NPUZZLE_PDB_DIR XDG_CACHE_HOME
    export HOME="$W/home"
    "$NP" gen --partition 8:4-4 -j 1 --quiet >/dev/null 2>&1
)
[ -f "$W/home/.cache/npuzzle/$B4" ] && ok || bad "no NPUZZLE_PDB_DIR nor XDG_CACHE_HOME: not written to ~/.cache/npuzzle"
(
    export NPUZZLE_PDB_DIR="$W/env" XDG_CACHE_HOME="$W/xdg2" HOME="$W/home2"
    "$NP" gen --partition 8:4-4 -j 1 --quiet >/dev/null 2>&1
)
[ -f "$W/env/$B4" ] && [ ! -e "$W/xdg2" ] && [ ! -e "$W/home2" ] && ok || bad "NPUZZLE_PDB_DIR not used first"
(
    export NPUZZLE_PDB_DIR="$W/env2" XDG_CACHE_HOME="$W/xdg3"
    "$NP" gen --partition 8:4-4 -j 1 --quiet --pdb-dir "$W/opt" >/dev/null 2>&1
)
[ -f "$W/opt/$B4" ] && [ ! -e "$W/env2" ] && [ ! -e "$W/xdg3" ] && ok || bad "--pdb-dir does not come first"

# ---- a name held by no regular file: refused before any build; --dry-run meets what gen does ---
BD="$T/blocked"
mkdir -p "$BD/3x3-bf-1.2.3.4.pdb"
expect_rc 3 "gen with a directory at a table's name" "$NP" gen --partition 8:4-4 --pdb-dir "$BD" -j 1 --quiet
expect_grep "3x3-bf-1.2.3.4.pdb is a directory" "$T/err" "  ... named"
[ ! -e "$BD/3x3-bf-5.6.7.8.pdb" ] && ok || bad "a table was built although another's name is blocked"
expect_rc 3 "  ... --dry-run says so too" "$NP" gen --partition 8:4-4 --pdb-dir "$BD" --dry-run
expect_grep "^BLOCK .*3x3-bf-1.2.3.4.pdb" "$T/out" "  ... its line reads BLOCK"
echo data >"$T/afile"
expect_rc 3 "gen --dry-run into a regular file's path" "$NP" gen --partition 8:4-4 --pdb-dir "$T/afile" --dry-run
expect_grep "Not a directory" "$T/err" "  ... as the run would say"
# a FIFO at a table's name is replaced by the build; a directory at a .zst name matters only
# with --compress
FD="$T/fifoname"
mkdir -p "$FD" && mkfifo "$FD/3x3-bf-1.2.3.4.pdb" && mkdir "$FD/3x3-bf-5.6.7.8.pdb.zst"
expect_rc 0 "gen over a FIFO at a table's name (and a directory at a .zst's)" timeout 60 "$NP" gen --partition 8:4-4 --pdb-dir "$FD" -j 1 --quiet
[ -f "$FD/3x3-bf-1.2.3.4.pdb" ] && ok || bad "the FIFO was not replaced by the table"
expect_rc 3 "  ... with --compress, the directory at the .zst name is refused" "$NP" gen --partition 8:4-4 --pdb-dir "$FD" -j 1 --compress --quiet
expect_grep "3x3-bf-5.6.7.8.pdb.zst is a directory" "$T/err" "  ... named"
# only the .zst there: --dry-run says it is unpacked, and the run keeps it
ZD="$T/zonly"
"$NP" gen --partition 8:4-4 --pdb-dir "$ZD" -j 1 --compress --quiet >/dev/null 2>&1
rm -f "$ZD"/*.pdb
expect_rc 0 "gen --dry-run with only the .zst files" "$NP" gen --partition 8:4-4 --pdb-dir "$ZD" --dry-run
expect_grep "^unzst .*3x3-bf-1.2.3.4.pdb" "$T/out" "  ... says it unpacks them"
expect_rc 0 "  ... with too little --max-memory to build them too (they are unpacked)" "$NP" gen --partition 8:4-4 --pdb-dir "$ZD" --dry-run --max-memory 1K
expect_rc 0 "  ... and the run keeps them" "$NP" gen --partition 8:4-4 --pdb-dir "$ZD" -j 1
expect_grep "keep\|kept" "$T/out" "  ... kept"

# ---- info: a table under another name is noted; a .zst is not unpacked under a name not its own ---
ND="$T/names"
mkdir -p "$ND"
cp "$F2" "$ND/3x3-bf-1.2.3.4.pdb"
expect_rc 0 "info on 5,6,7,8's table named 3x3-bf-1.2.3.4.pdb" "$NP" info "$ND/3x3-bf-1.2.3.4.pdb"
expect_grep "holds the table named 3x3-bf-5.6.7.8.pdb" "$T/err" "  ... the note names the table it holds"
rm "$ND/3x3-bf-1.2.3.4.pdb"
"$NP" gen --partition 8:4-4 --pdb-dir "$T/zs" -j 1 --compress --quiet >/dev/null 2>&1
cp "$T/zs/3x3-bf-5.6.7.8.pdb.zst" "$ND/3x3-bf-1.2.3.4.pdb.zst"
expect_rc 3 "info X.pdb.zst holding another table, no X.pdb" "$NP" info "$ND/3x3-bf-1.2.3.4.pdb.zst"
expect_grep "holds the table 3x3-bf-5.6.7.8.pdb, not 3x3-bf-1.2.3.4.pdb" "$T/err" "  ... refused by name"
[ ! -e "$ND/3x3-bf-1.2.3.4.pdb" ] && ok || bad "info left an unpacked table under a name not its own"
[ -z "$(ls -A "$ND" | grep -v '3x3-bf-1.2.3.4.pdb.zst')" ] && ok || bad "info left files: $(ls -A "$ND")"
# the same asked as X.pdb (missing; its .zst holds another table)
expect_rc 3 "info X.pdb, only X.pdb.zst there, holding another table" "$NP" info "$ND/3x3-bf-1.2.3.4.pdb"
[ ! -e "$ND/3x3-bf-1.2.3.4.pdb" ] && ok || bad "info kept an unpacked table under a name not its own"
# a .zst that differs from its .pdb: the first differing byte
cp "$T/zs/3x3-bf-1.2.3.4.pdb" "$ND/" && cp "$T/zs/3x3-bf-1.2.3.4.pdb.zst" "$ND/"
printf '\377' | dd of="$ND/3x3-bf-1.2.3.4.pdb" bs=1 seek=5000 conv=notrunc 2>/dev/null
expect_rc 3 "info X.pdb.zst that unpacks to other bytes than X.pdb" "$NP" info "$ND/3x3-bf-1.2.3.4.pdb.zst"
expect_grep "differs from .* at byte 5000" "$T/err" "  ... at the byte that differs"
# gen: an empty --pattern; a catalogue name as --pattern gives the size, as --partition does
expect_rc 2 "gen --pattern ''" "$NP" gen --pattern '' --pdb-dir "$T/e" --dry-run
expect_grep "empty" "$T/err" "  ... says it is empty"
expect_rc 0 "gen --pattern 8:4-4 (no --size)" "$NP" gen --pattern 8:4-4 --pdb-dir "$T/e" --dry-run
expect_grep "3x3-bf-1.2.3.4.pdb" "$T/out" "  ... the 3x3 tables"

cli_summary
