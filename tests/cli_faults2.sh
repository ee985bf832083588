#!/usr/bin/env bash
# cli_faults2.sh - more faults around PDB files: out of disk space while generating,
# compressing and unpacking; two processes generating or unpacking the same file at
# once; a table truncated or overwritten after generation; a missing PDB directory.
# Each check asserts the exit code, the message and the state of the files after.
#
# usage: bash tests/cli_faults2.sh PATH_TO_NPUZZLE     (NPUZZLE_DATA_DIR: the data/ folder)
#
# The out-of-space checks mount small tmpfs file systems, so they need root; without
# it (or when mount fails, e.g. in an unprivileged container) they print a skip line
# with the reason and count as neither passed nor failed.
set -u

. "$(dirname "$0")/cli_lib.sh"
cli_start "$@"
MOUNTS=()
BGPIDS=()
cleanup() {
    local p m
    for p in "${BGPIDS[@]+"${BGPIDS[@]}"}"; do kill -9 "$p" 2>/dev/null; done
    for m in "${MOUNTS[@]+"${MOUNTS[@]}"}"; do umount "$m" 2>/dev/null || umount -l "$m" 2>/dev/null; done
    rm -rf "$T"
}
trap 'exit 130' INT TERM
# expect (cli_lib.sh) ignores case here
EXPECT_GREP=-Eiq
# loads FILE: `npuzzle info` opens FILE and its checksum verifies
loads() { "$NP" info "$1" </dev/null 2>/dev/null | grep -Eq '^checksum: *ok'; }
# same_files DIR1 DIR2 EXT: every DIR1/*.EXT exists in DIR2 with the same bytes (and there is one)
same_files() {
    local f n=0
    for f in "$1"/*."$3"; do
        [ -e "$f" ] || return 1
        cmp -s "$f" "$2/$(basename "$f")" || return 1
        n=$((n + 1))
    done
    [ "$n" -gt 0 ]
}
# count_pdb DIR NAME: how many entries of DIR are named exactly NAME (0 or 1)
count_pdb() { ls -A "$1" | grep -cxF "$2"; }

# Boards from random walks from the goal (awk, fixed seed). Their reference answers come from a
# search without tables (-H lc), checked against a breadth-first search for the 8-puzzle (bfs8).
# walks ROWS COLS N MAXLEN SEED
walks() {
    awk -v R="$1" -v C="$2" -v N="$3" -v K="$4" -v S="$5" 'BEGIN {
        srand(S); n = R * C;
        for (i = 0; i < N; i++) {
            for (c = 0; c < n; c++) t[c] = c;
            b = 0; prev = -1;
            for (m = 0; m < K; m++) {
                do { d = int(rand() * 4) } while (d == 3 - prev);
                r = int(b / C); col = b % C;
                if (d == 0 && r > 0) to = b - C; else if (d == 3 && r < R - 1) to = b + C;
                else if (d == 1 && col > 0) to = b - 1; else if (d == 2 && col < C - 1) to = b + 1;
                else continue;
                t[b] = t[to]; t[to] = 0; b = to; prev = d;
            }
            s = t[0]; for (c = 1; c < n; c++) s = s " " t[c];
            print s;
        }
    }'
}
# lengths CSV: "id length" per solved record of a csv result
lengths() { awk -F, 'NR > 1 && $3 == "solved" { print $1, $5 }' "$1"; }

# ---- out of disk space ------------------------------------------------------------
# mount_small DIR SIZE: mount a tmpfs of SIZE at DIR; sets $why and fails when it cannot
why=""
mount_small() {
    mkdir -p "$1"
    if [ "$(id -u)" -ne 0 ]; then why="not running as root"; return 1; fi
    if ! command -v mount >/dev/null 2>&1; then why="no mount command"; return 1; fi
    local msg
    if ! msg=$(mount -t tmpfs -o "size=$2" tmpfs "$1" 2>&1); then
        why="mount -t tmpfs failed: ${msg:-exit status $?}"
        return 1
    fi
    MOUNTS+=("$1")
    return 0
}

# 1. A 15-puzzle 6-tile table (2.75 MiB 4-bit) into a 2 MiB file system.
F="$T/full1"
if mount_small "$F" 2m; then
    run gen --size 4x4 --pattern 1,2,3,4,5,6 --pdb-dir "$F" -j 2 --quiet
    expect "ENOSPC: gen of a 2.75 MiB table into a 2 MiB tmpfs" 3 \
        err "full1/4x4-bf-1\.2\.3\.4\.5\.6\.pdb" err "no space left|disk full|ENOSPC"
    truth "  ... no file of that name, no temporary file" \
        eval '[ -z "$(ls -A "$F")" ]'
    run info "$F/4x4-bf-1.2.3.4.5.6.pdb"
    expect "  ... npuzzle info finds nothing that loads" 3 err "4x4-bf-1\.2\.3\.4\.5\.6\.pdb: not found"
    truth "  ... the space is given back (tmpfs empty)" \
        eval '[ "$(df -k --output=used "$F" | tail -1 | tr -d " ")" -lt 64 ]'
else
    skip "ENOSPC: gen into a 2 MiB tmpfs ($why)"
fi

# 2. A valid 4-bit table (260 KiB) rebuilt with --force --8bit (520 KiB) where only
# 440 KiB are free: the rebuild fails, the previous file is untouched (bytes and inode).
F="$T/full2"
if mount_small "$F" 700k; then
    P="$F/4x4-bf-1.2.3.4.5.pdb"
    run gen --size 4x4 --pattern 1,2,3,4,5 --pdb-dir "$F" -j 2 --quiet
    expect "ENOSPC (rebuild): the 4-bit table fits" 0
    truth "  ... and loads" loads "$P"
    cp -p "$P" "$T/p5.before"
    ino=$(stat -c %i "$P")
    run gen --size 4x4 --pattern 1,2,3,4,5 --pdb-dir "$F" -j 2 --quiet --force --8bit
    expect "ENOSPC (rebuild): --force --8bit does not fit" 3 \
        err "full2/4x4-bf-1\.2\.3\.4\.5\.pdb" err "no space left|disk full|ENOSPC"
    truth "  ... the previous table is untouched (bytes and inode)" \
        eval 'cmp -s "$P" "$T/p5.before" && [ "$(stat -c %i "$P")" = "$ino" ]'
    truth "  ... and still loads" loads "$P"
    truth "  ... no temporary file left" no_temp "$F"
else
    skip "ENOSPC: rebuild over a valid table ($why)"
fi

# 3. The table fits (65 pages) but its .zst (10 pages) does not: gen --compress fails
# naming the .zst; the table is complete and loads; no .zst nor temporary file is left.
F="$T/full3"
if mount_small "$F" 280k; then
    P="$F/4x4-bf-1.2.3.4.5.pdb"
    run gen --size 4x4 --pattern 1,2,3,4,5 --pdb-dir "$F" -j 2 --quiet --compress
    expect "ENOSPC (compress): gen --compress with no room for the .zst" 3 \
        err "full3/4x4-bf-1\.2\.3\.4\.5\.pdb\.zst" err "no space left|disk full|ENOSPC"
    truth "  ... the .pdb was written and loads" loads "$P"
    truth "  ... no .zst left" test ! -e "$P.zst"
    truth "  ... no temporary file left" no_temp "$F"
else
    skip "ENOSPC: gen --compress ($why)"
fi

# 4. Only the .zst files of 15:5-5-5 (37 pages together) on a 75-page file system:
# the solver cannot unpack a 65-page table next to them. It must say so, naming the
# file, exit 3, and leave no partial .pdb or temporary file behind.
F="$T/full4"
mkdir -p z555
run gen --partition 15:5-5-5 --pdb-dir "$T/z555" -j 2 --quiet --compress
expect "ENOSPC (unpack): 15:5-5-5 generated with --compress" 0
walks 4 4 5 30 4242 >b15.txt
if mount_small "$F" 300k; then
    cp z555/*.zst "$F"/
    run solve -H pdb --partition 15:5-5-5 --pdb-dir "$F" b15.txt
    expect "ENOSPC (unpack): solve -H pdb cannot unpack the tables" 3 \
        err "full4/4x4-bf-[0-9.]+\.pdb" err "no space left|disk full|ENOSPC"
    truth "  ... no .pdb (partial or whole) left, only the 3 .zst files" \
        eval '[ "$(ls -A "$F" | grep -c "\.pdb$")" -eq 0 ] && [ "$(ls -A "$F" | grep -c "\.zst$")" -eq 3 ]'
    truth "  ... no temporary file left" no_temp "$F"
    truth "  ... the .zst files are unchanged" same_files z555 "$F" zst
else
    skip "ENOSPC: unpacking in solve ($why)"
fi

# ---- two processes generating the same table at once ---------------------------------
# start_bg TAG ARGS...: run npuzzle in the background, output in TAG.out / TAG.err
start_bg() {
    local tag=$1
    shift
    "$NP" "$@" </dev/null >"$tag.out" 2>"$tag.err" &
    BGPIDS+=($!)
}
# wait_bg: wait for every background job; their exit codes in $bgrc (space-separated)
bgrc=""
wait_bg() {
    local p r
    bgrc=""
    for p in "${BGPIDS[@]}"; do
        wait "$p"
        r=$?
        bgrc="$bgrc $r"
    done
    bgrc=${bgrc# }
    BGPIDS=()
}
all_zero() { [ -z "$(echo "$1" | tr ' ' '\n' | grep -vx 0)" ]; }
show_bg() {
    local f
    for f in "$@"; do sed -n '1,4s/^/     '"$f"': /p' "$f"; done
}

# 1. A fresh directory; 15-puzzle 6-tile table, with --compress; both at once.
D="$T/race"
mkdir -p "$D"
P6="$D/4x4-bf-1.2.3.4.5.6.pdb"
LAST="2 x npuzzle gen --size 4x4 --pattern 1,2,3,4,5,6 --compress (fresh dir)"
start_bg g1 gen --size 4x4 --pattern 1,2,3,4,5,6 --pdb-dir "$D" -j 1 --quiet --compress
start_bg g2 gen --size 4x4 --pattern 1,2,3,4,5,6 --pdb-dir "$D" -j 1 --quiet --compress
wait_bg
if all_zero "$bgrc"; then pass "race (gen, fresh dir): both exit 0 ($bgrc)"; else
    failed=$((failed + 1)); echo "FAIL race (gen, fresh dir): exits $bgrc, want 0 0"; show_bg g1.err g2.err
fi
truth "  ... each reports the file on stdout" \
    eval 'grep -qF "$P6" g1.out && grep -qF "$P6" g2.out'
truth "  ... exactly one .pdb and one .zst" \
    eval '[ "$(count_pdb "$D" 4x4-bf-1.2.3.4.5.6.pdb)" -eq 1 ] && [ "$(count_pdb "$D" 4x4-bf-1.2.3.4.5.6.pdb.zst)" -eq 1 ] && [ "$(ls -A "$D" | wc -l)" -eq 2 ]'
run info "$P6"
expect "  ... the .pdb verifies (npuzzle info)" 0 out "^checksum: *ok" out "entries: *5765760"
truth "  ... no temporary file left" no_temp "$D"
# the .zst unpacks to the same bytes as the .pdb (zstd CLI when present, else via the solver)
if command -v zstd >/dev/null 2>&1; then
    truth "  ... the .zst unpacks to the .pdb (zstd -t and compare)" \
        eval 'zstd -q -t "$P6.zst" && zstd -q -d -c "$P6.zst" | cmp -s - "$P6"'
fi
cp -p "$P6" "$T/p6.race1"

# 2. Both rebuild the same existing table with --force at once (no --compress).
LAST="2 x npuzzle gen --size 4x4 --pattern 1,2,3,4,5,6 --force"
start_bg g1 gen --size 4x4 --pattern 1,2,3,4,5,6 --pdb-dir "$D" -j 1 --quiet --force
start_bg g2 gen --size 4x4 --pattern 1,2,3,4,5,6 --pdb-dir "$D" -j 1 --quiet --force
wait_bg
if all_zero "$bgrc"; then pass "race (gen --force): both exit 0 ($bgrc)"; else
    failed=$((failed + 1)); echo "FAIL race (gen --force): exits $bgrc, want 0 0"; show_bg g1.err g2.err
fi
truth "  ... exactly one .pdb of that name" test "$(count_pdb "$D" 4x4-bf-1.2.3.4.5.6.pdb)" -eq 1
run info "$P6"
expect "  ... it verifies (npuzzle info)" 0 out "^checksum: *ok"
truth "  ... same payload as before (the generator is deterministic)" \
    eval 'cmp -s -i 4096 "$P6" "$T/p6.race1"'
truth "  ... no temporary file left" no_temp "$D"

# ---- two processes unpacking the same .pdb.zst at once -------------------------------
# Reference answers: the same boards with linear conflict (optimal too).
walks 4 4 6 36 777 >u15.txt
run solve -H lc --format csv -q u15.txt
expect "unpack race: reference answers with -H lc" 0
lengths out >u15.ref
truth "  ... 6 reference lengths" test "$(wc -l <u15.ref)" -eq 6
U="$T/unpack"
mkdir -p "$U"
cp z555/*.zst "$U"/
for round in 1 2 3; do
    rm -f "$U"/*.pdb
    LAST="3 x npuzzle solve -H pdb --partition 15:5-5-5 (round $round, only .zst present)"
    start_bg s1 solve -H pdb --partition 15:5-5-5 --pdb-dir "$U" --format csv -q -j 1 u15.txt
    start_bg s2 solve -H pdb --partition 15:5-5-5 --pdb-dir "$U" --format csv -q -j 1 u15.txt
    start_bg s3 solve -H pdb --partition 15:5-5-5 --pdb-dir "$U" --format csv -q -j 1 u15.txt
    wait_bg
    if all_zero "$bgrc"; then pass "unpack race $round: all three solvers exit 0 ($bgrc)"; else
        failed=$((failed + 1)); echo "FAIL unpack race $round: exits $bgrc, want 0 0 0"
        show_bg s1.err s2.err s3.err
    fi
    ok=1
    for s in s1 s2 s3; do
        lengths "$s.out" >"$s.len"
        cmp -s "$s.len" u15.ref || ok=0
    done
    truth "  ... every answer is optimal (lengths as with -H lc)" test "$ok" -eq 1
    cp s1.out unpack.csv
    run verify -q --boards u15.txt --results unpack.csv
    expect "  ... and legal (npuzzle verify)" 0 out "6 boards: 6 ok, 0 wrong"
    n=$(ls -A "$U" | grep -c '\.pdb$')
    truth "  ... exactly the 3 tables unpacked ($n .pdb)" test "$n" -eq 3
    truth "  ... byte for byte the generated tables" same_files z555 "$U" pdb
    truth "  ... no temporary file left" no_temp "$U"
done

# ---- a table truncated or overwritten after generation -------------------------------
C="$T/corrupt"
run gen --partition 8:4-4 --pdb-dir "$C" -j 1 --quiet --compress
expect "corrupt: gen 8:4-4 (with .zst)" 0
A="$C/3x3-bf-1.2.3.4.pdb"
B="$C/3x3-bf-5.6.7.8.pdb"
cp -p "$A" a.good
cp -p "$B" b.good
walks 3 3 20 40 99 >b8.txt
run solve -H lc --format csv -q b8.txt
lengths out >b8.ref
truth "corrupt: 20 reference lengths (-H lc)" test "$(wc -l <b8.ref)" -eq 20
bfs8 b8.txt | awk '{ print NR, $1 }' >b8.bfs
truth "  ... each the breadth-first distance" cmp -s b8.ref b8.bfs
run solve -H pdb --pdb-dir "$C" --format csv -q b8.txt
expect "corrupt: the good tables solve" 0
lengths out >b8.pdb
truth "  ... optimally" cmp -s b8.pdb b8.ref
# corrupt_case NAME REGEX: solve -H pdb and info refuse $A, naming it and the problem; no answer printed
corrupt_case() {
    run solve -H pdb --pdb-dir "$C" --format csv b8.txt
    expect "corrupt ($1): solve -H pdb refuses it" 3 err "3x3-bf-1\.2\.3\.4\.pdb" err "$2" err "npuzzle gen"
    truth "  ... and prints no answer" eval '! grep -q solved out'
    run info "$A"
    expect "  ... npuzzle info exits 3 naming it" 3 err "3x3-bf-1\.2\.3\.4\.pdb" err "$2"
    cp -p a.good "$A"
}
# a) cut short by one byte, and by a whole page (header intact)
truncate -s -1 "$A"
corrupt_case "truncated by 1 byte" "truncat|short|size"
truncate -s 4096 "$A"
corrupt_case "truncated to its header" "truncat|short|size"
: >"$A"
corrupt_case "truncated to 0 bytes" "truncat|empty|short|size"
# b) one payload byte overwritten in place (same size, same header)
printf '\x5a' | dd of="$A" bs=1 seek=4200 conv=notrunc status=none
cmp -s "$A" a.good && printf '\xa5' | dd of="$A" bs=1 seek=4200 conv=notrunc status=none
corrupt_case "one payload byte overwritten" "checksum"
# c) the last payload byte overwritten (the checksum covers the whole payload)
sz=$(stat -c %s "$A")
printf '\xff' | dd of="$A" bs=1 seek=$((sz - 1)) conv=notrunc status=none
cmp -s "$A" a.good && printf '\x00' | dd of="$A" bs=1 seek=$((sz - 1)) conv=notrunc status=none
corrupt_case "last payload byte overwritten" "checksum"
# d) overwritten by another pattern's valid table (a mismatch, named)
cp "$B" "$A"
run solve -H pdb --pdb-dir "$C" --format csv b8.txt
expect "corrupt (another pattern's table under its name): solve -H pdb refuses it" 3 \
    err "3x3-bf-1\.2\.3\.4\.pdb" err "pattern|tiles"
cp -p a.good "$A"
# e) garbage of the right size
head -c "$(stat -c %s a.good)" /dev/urandom >"$A"
corrupt_case "overwritten with random bytes" "magic|format|not a|header"
# f) the valid .zst next to a corrupted .pdb does not paper over it (every case above had
# one), the refused file is left as found, and solve without -H does not fall back silently
truncate -s -1 "$A"
cp "$A" a.bad
run solve -H pdb --pdb-dir "$C" --format csv b8.txt
expect "corrupt: a second run refuses it again" 3 err "3x3-bf-1\.2\.3\.4\.pdb"
truth "  ... the refused file is left as it was (not deleted, not rewritten)" cmp -s "$A" a.bad
run solve --pdb-dir "$C" --format csv b8.txt
expect "corrupt: solve without -H refuses it too (no silent fallback)" 3 \
    err "3x3-bf-1\.2\.3\.4\.pdb: truncated" err "npuzzle gen"
# g) only a damaged .zst (no .pdb): refused naming the .zst; nothing unpacked, no temporary file
rm -f "$A"
Z="$A.zst"
cp -p "$Z" z.good
truncate -s -10 "$Z"
run solve -H pdb --pdb-dir "$C" --format csv b8.txt
expect "corrupt .zst (truncated): solve -H pdb refuses it" 3 err "3x3-bf-1\.2\.3\.4\.pdb\.zst: .*truncated"
truth "  ... no .pdb unpacked, no temporary file" eval '[ ! -e "$A" ] && no_temp "$C"'
cp -p z.good "$Z"
zs=$(stat -c %s "$Z")
printf '\x5a' | dd of="$Z" bs=1 seek=$((zs / 2)) conv=notrunc status=none
cmp -s "$Z" z.good && printf '\xa5' | dd of="$Z" bs=1 seek=$((zs / 2)) conv=notrunc status=none
run solve -H pdb --pdb-dir "$C" --format csv b8.txt
expect "corrupt .zst (one byte overwritten): solve -H pdb refuses it" 3 \
    err "3x3-bf-1\.2\.3\.4\.pdb\.zst: .*(checksum|damaged|corrupt)"
truth "  ... no .pdb unpacked, no temporary file" eval '[ ! -e "$A" ] && no_temp "$C"'
cp -p z.good "$Z"
cp -p a.good "$A"
run solve -H pdb --pdb-dir "$C" --format csv -q b8.txt
expect "corrupt: restored tables solve again" 0
lengths out >b8.pdb
truth "  ... optimally" cmp -s b8.pdb b8.ref

# ---- a missing PDB directory --------------------------------------------------------
M="$T/no/such/dir"
run solve -H pdb --pdb-dir "$M" b8.txt
expect "missing --pdb-dir: solve -H pdb" 3 \
    err "no/such/dir/3x3-bf-[0-9.]+\.pdb" err "not found" err "npuzzle gen --partition 8:4-4 --pdb-dir $M"
truth "  ... prints no answer" eval '! grep -q solved out'
truth "  ... creates nothing" test ! -e "$T/no"
run solve --pdb-dir "$M" --format csv b8.txt
expect "missing --pdb-dir: solve without -H falls back" 0 \
    err "no pattern databases.*no/such/dir" err "npuzzle gen --partition 8:4-4 --pdb-dir $M" \
    err "linear conflict"
lengths out >b8.fb
truth "  ... and still answers optimally" cmp -s b8.fb b8.ref
truth "  ... creates nothing" test ! -e "$T/no"
run solve -q --pdb-dir "$M" --format csv b8.txt
expect "missing --pdb-dir: solve -q without -H falls back silently" 0
truth "  ... nothing on stderr" test ! -s err
# a path under a regular file (ENOTDIR rather than ENOENT)
touch "$T/plain"
run solve -H pdb --pdb-dir "$T/plain/pdb" b8.txt
expect "--pdb-dir under a regular file: solve -H pdb" 3 err "plain/pdb/3x3-bf-[0-9.]+\.pdb: cannot open: Not a directory"
check "  ... and no advice to rebuild tables that are not at fault" eval '! grep -q -- "--force" err'

# ---- a finished checkpoint in a read-only place -----------------------------------------
# Its answers are printed again without a lock (none can be made there) and without a write; a
# checkpoint such a run would write is refused by name.
F="$T/ro-ck"
printf '8 6 7 2 5 4 3 0 1\n' >ck8.txt
if mount_small "$F" 1m; then
    run solve -H md -f json --checkpoint "$F/ck" ck8.txt
    expect "a checkpoint on a small tmpfs" 0
    cp out ck8.json
    if mount -o remount,ro "$F" 2>/dev/null; then
        run solve -H md -f json --checkpoint "$F/ck" ck8.txt
        expect "  ... remounted read-only: its answer printed again, exit 0" 0 out '"status":"solved"'
        truth "  ... the same answer as the run that wrote it, its time too" cmp -s out ck8.json
        run solve -H md -f json --checkpoint "$F/new" ck8.txt
        expect "  ... a checkpoint to be made there: refused, exit 3, the lock and the reason named" 3 \
            err "cannot create checkpoint lock .*ro-ck/new\.lock: read-only file system"
        truth "  ... nothing printed" test ! -s out
        # a checkpoint with a board left (Korf #88, about a second with -H lc, stopped by SIGINT): refused
        mount -o remount,rw "$F" 2>/dev/null
        { cat ck8.txt; grep -h ' id=88 ' "$DATA/korf100.txt"; } >left.txt
        timeout -s INT 0.3 "$NP" solve -H lc -j 2 --checkpoint "$F/left" left.txt >/dev/null 2>&1
        mount -o remount,ro "$F" 2>/dev/null
        if [ -f "$F/left" ] && ! grep -q '^done 1 ' "$F/left"; then
            run solve -H lc -j 2 --checkpoint "$F/left" left.txt
            expect "  ... one with a board left: refused, exit 3, the lock and the reason named" 3 \
                err "cannot create checkpoint lock .*ro-ck/left\.lock: read-only file system \(the checkpoint has boards left"
        else
            skip "  ... one with a board left: the run ended before SIGINT (or wrote nothing)"
        fi
    else
        skip "a finished checkpoint in a read-only place (mount -o remount,ro failed)"
    fi
else
    skip "a finished checkpoint in a read-only place ($why)"
fi
# The same in a directory this user may not write in (EACCES: no lock can be made either).
mkdir -p acc
run solve -H md -f json --checkpoint "$T/acc/ck" ck8.txt
cp out ck8-acc.json
chmod 0555 acc
if nobody_can; then
    as_nobody solve -H md -f json --checkpoint "$T/acc/ck" ck8.txt
    expect "a finished checkpoint in a directory uid 65534 may not write in: its answer, exit 0" 0 \
        out '"status":"solved"'
    truth "  ... the same answer as the run that wrote it" cmp -s out ck8-acc.json
    truth "  ... nothing written there" test -z "$(ls -A acc | grep -vx ck)"
    as_nobody solve -H md -f json --checkpoint "$T/acc/new" ck8.txt
    expect "  ... a checkpoint to be made there: refused, exit 3, the lock and the reason named" 3 \
        err "cannot create checkpoint lock .*acc/new\.lock: permission denied"
else
    skip "a finished checkpoint in a directory another user may not write in ($why)"
fi
chmod 0755 acc

# ---- a table changed while a solver has it mapped ---------------------------------
# Korf's 100 with 15:5-5-5 (parent pruning, the slower search) takes many seconds; the table
# is damaged one second in.
C="$T/changing"
mkdir -p "$C"
"$NP" gen --partition 15:5-5-5 --pdb-dir "$C" -q -j 1 >/dev/null 2>&1
victim="$C/4x4-bf-4.5.8.9.12.pdb"
cp "$victim" "$T/victim.good"
# The first 20 of Korf's instances: seconds of search in a release build (so the
# table is damaged mid-run), and not minutes under the sanitizers.
grep -v '^#' "${NPUZZLE_DATA_DIR:-$(dirname "$0")/../data}/korf100.txt" | head -n 20 > "$T/korf20.txt"
korf="$T/korf20.txt"
# truncated under the solver: SIGBUS is caught, a message, exit 3, no answers
"$NP" solve -H pdb --partition 15:5-5-5 --prune parent --pdb-dir "$C" -j 1 --format csv "$korf" >out 2>err &
pid=$!
sleep 1
truncate -s 4096 "$victim"
wait "$pid"
code=$?
if [ "$code" -eq 3 ] && grep -q "truncated while in use" err && [ ! -s out ]; then
    pass "table truncated while mapped: exit 3, message, no answers"
else
    fail "table truncated while mapped: exit $code, stderr: $(head -c 300 err), stdout lines: $(wc -l <out)"
fi
# overwritten in place under the solver: the final re-check refuses the answers
cp "$T/victim.good" "$victim"
"$NP" solve -H pdb --partition 15:5-5-5 --prune parent --pdb-dir "$C" -j 1 --format csv "$korf" >out 2>err &
pid=$!
sleep 1
printf '\177\177\177\177\177\177\177\177' | dd of="$victim" bs=1 seek=9000 conv=notrunc 2>/dev/null
wait "$pid"
code=$?
if [ "$code" -eq 3 ] && grep -q "changed while solving" err && grep -q "$victim" err && [ ! -s out ]; then
    pass "table overwritten while mapped: exit 3, names the file, no answers"
else
    fail "table overwritten while mapped: exit $code, stderr: $(head -c 300 err), stdout lines: $(wc -l <out)"
fi

cli_summary
