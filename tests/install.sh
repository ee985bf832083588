#!/usr/bin/env bash
# install.sh - npuzzle as a package: `meson install --destdir` into a temporary folder, then a C
# program built against the installed headers and library through the installed npuzzle.pc solves
# a board; the installed man pages render without warnings; the installed npuzzle runs with the
# installed data and reports the version of meson.build; bash completion completes subcommands and
# options.
# usage: install.sh BUILD_DIR SOURCE_DIR
set -u
BUILD=$(cd "${1:?usage: install.sh BUILD_DIR SOURCE_DIR}" && pwd)
SRC=$(cd "${2:?usage: install.sh BUILD_DIR SOURCE_DIR}" && pwd)
NP="$BUILD/tools/npuzzle" # for cli_lib's messages only
. "$SRC/tests/cli_lib.sh"
cli_tmpdir
cd "$T" || exit 2
D="$T/root"

# meson install writes the files it installed to the build folder's install log, which `ninja
# uninstall` reads: the log of the user's own install (from this build folder) is put back.
LOG="$BUILD/meson-logs/install-log.txt"
[ ! -f "$LOG" ] || cp -p "$LOG" "$T/install-log.saved"
LAST="meson install -C $BUILD --destdir $D --no-rebuild"
meson install -C "$BUILD" --destdir "$D" --no-rebuild --quiet >out 2>err
rc=$?
if [ -f "$T/install-log.saved" ]; then cp -p "$T/install-log.saved" "$LOG"; else rm -f "$LOG"; fi
expect "meson install --destdir" 0
prefix=$(meson introspect "$BUILD" --buildoptions | python3 -c '
import json, sys
o = {x["name"]: x["value"] for x in json.load(sys.stdin)}
print(o["prefix"], o["libdir"], o["bindir"], o["datadir"], o["mandir"], o["includedir"], o["default_library"])')
read -r pfx libdir bindir datadir mandir incdir libkind <<<"$prefix"
at() { case $1 in /*) echo "$D$1" ;; *) echo "$D$pfx/$1" ;; esac; }
LIB=$(at "$libdir") BIN=$(at "$bindir") DATA=$(at "$datadir") MAN=$(at "$mandir") INC=$(at "$incdir")

check "installed: the program" test -x "$BIN/npuzzle"
case $libkind in
    both) check "installed: the shared and the static library" test -e "$LIB/libnpuzzle.so" -a -e "$LIB/libnpuzzle.a" ;;
    shared) check "installed: the shared library" test -e "$LIB/libnpuzzle.so" -a ! -e "$LIB/libnpuzzle.a" ;;
    static) check "installed: the static library" test -e "$LIB/libnpuzzle.a" -a ! -e "$LIB/libnpuzzle.so" ;;
esac
check "installed: the public headers" test -f "$INC/npuzzle.h" -a -f "$INC/npuzzle/ida.h"
check "installed: npuzzle.pc" test -f "$LIB/pkgconfig/npuzzle.pc"
check "installed: the data" test -f "$DATA/npuzzle/korf100.txt" -a -f "$DATA/npuzzle/partitions.txt" -a -f "$DATA/npuzzle/published-nodes.txt"
check "installed: bash completion" test -f "$DATA/bash-completion/completions/npuzzle"

# a program built through the installed npuzzle.pc (its prefix moved under the destdir)
sed "s|^prefix=.*|prefix=$D$pfx|" "$LIB/pkgconfig/npuzzle.pc" >npuzzle.pc
LAST="cc install_example.c \$(pkg-config --cflags --libs npuzzle)"
flags=$(PKG_CONFIG_PATH="$T" pkg-config --cflags --libs npuzzle 2>err)
rc=$?
expect "pkg-config --cflags --libs npuzzle" 0
# In a sanitizer build the installed library needs the sanitizer runtimes first in the program.
san=
if ldd "$NP" 2>/dev/null | grep -q 'libasan'; then san="-fsanitize=address,undefined"; fi
${CC:-cc} -std=c11 -Wall -Wextra -Werror $san -o example "$SRC/tests/install_example.c" $flags >out 2>err
rc=$?
expect "the example compiles against the installed headers, warning-free" 0
# Korf #12 (opt 45), solved by the installed library
board=$(grep -E '# id=12 opt=' "$DATA/npuzzle/korf100.txt" | cut -d'#' -f1)
opt=$(grep -E '# id=12 opt=' "$DATA/npuzzle/korf100.txt" | sed -E 's/.*opt=([0-9]+).*/\1/')
LAST="example $opt $board"
LD_LIBRARY_PATH="$LIB" ./example "$opt" $board >out 2>err
rc=$?
expect "the example solves Korf #12 at its optimal length through the installed library" 0 out "status solved, length $opt"

version=$(sed -nE "s/^ *version *: *'([^']+)'.*/\1/p" "$SRC/meson.build" | head -1)

# the shared library exports the public API only (np_ and a letter), not the internals (np__)
if [ "$libkind" != static ]; then
    so=$(ls "$LIB"/libnpuzzle.so.*.*.* 2>/dev/null | head -1)
    others=$(nm -D --defined-only "$so" 2>/dev/null | awk '{print $3}' | grep -v '^np_[a-z]' | head -5)
    public=$(nm -D --defined-only "$so" 2>/dev/null | awk '{print $3}' | grep -c '^np_[a-z]')
    LAST="nm -D $so: ${public} public symbols; others: ${others:-none}"
    rc=0
    check "the installed library exports the public API and nothing else" test -n "$so" -a "$public" -gt 50 -a -z "$others"
fi

# a C++ program links against the C library (the headers declare it extern "C")
cxx=${CXX:-c++}
if command -v "$cxx" >/dev/null; then
    cat >example.cc <<'CC'
#include <npuzzle.h>
#include <cstdio>
#include <cstring>
int main()
{
    np_geom g;
    np_board b;
    char err[128];
    if (np_geom_init(&g, 3, 3, NP_GOAL_BLANK_FIRST) != NP_OK ||
        np_board_parse(&b, NULL, "1 2 0 3 4 5 6 7 8", 3, 3, err, sizeof err) != 1)
        return 1;
    np_board s = b;
    if (np_board_apply_moves(&s, &g, "LL", NULL) != NP_OK || !np_board_is_goal(&s, &g))
        return 1;
    std::printf("%s\n", np_version());
    return 0;
}
CC
    LAST="$cxx example.cc \$(pkg-config --cflags --libs npuzzle)"
    "$cxx" -Wall -Wextra -Werror $san -o example_cc example.cc $flags >out 2>err
    rc=$?
    expect "a C++ program compiles and links against the installed library" 0
    LAST="example_cc"
    LD_LIBRARY_PATH="$LIB" ./example_cc >out 2>err
    rc=$?
    expect "the C++ program runs: np_board_apply_moves and np_version through the C ABI" 0 out "^$version$"
else
    skip "C++: no $cxx"
fi

# the installed programs find the library under their prefix without ldconfig or LD_LIBRARY_PATH
# (their RUNPATH; none under /usr, whose libdir the loader searches)
case $libdir in /*) want="$libdir" ;; *) want="$pfx/$libdir" ;; esac
for prog in "$BIN"/npuzzle "$BIN"/npuzzle-mpi; do
    [ -e "$prog" ] || continue
    runpath=$(readelf -d "$prog" 2>/dev/null | sed -nE 's/.*\((RUNPATH|RPATH)\).*\[(.*)\]/\2/p')
    LAST="readelf -d $(basename "$prog"): runpath '$runpath', prefix $pfx"
    rc=0
    if [ "$pfx" = /usr ]; then
        check "installed $(basename "$prog"): no runpath under /usr" test -z "$runpath"
    else
        check "installed $(basename "$prog"): its runpath is the installed libdir" test "$runpath" = "$want"
    fi
done

# the installed program, with the installed data, and its version
LAST="npuzzle version"
LD_LIBRARY_PATH="$LIB" "$BIN/npuzzle" version >out 2>err
rc=$?
expect "npuzzle version: meson.build's, library and program alike" 0 out "^npuzzle $version \(libnpuzzle $version\)$"
LAST="npuzzle --version"
LD_LIBRARY_PATH="$LIB" "$BIN/npuzzle" --version >out 2>err
rc=$?
expect "npuzzle --version: the same" 0 out "^npuzzle $version \(libnpuzzle $version\)$"
LAST="npuzzle solve -H lc --check share/npuzzle/hardest8.txt"
LD_LIBRARY_PATH="$LIB" "$BIN/npuzzle" solve -H lc --check "$DATA/npuzzle/hardest8.txt" >out 2>err
rc=$?
expect "the installed npuzzle solves the installed hardest8.txt" 0 out "2 solved"

# man pages render without warnings
for page in man1/npuzzle.1 man5/npuzzle-pdb.5; do
    f="$MAN/$page"
    [ -f "$f" ] || f="$f.gz"
    if ! command -v man >/dev/null; then skip "man $page: no man program"; continue; fi
    LAST="man --warnings -l $page"
    MANWIDTH=80 man --warnings -l "$f" >out 2>err
    rc=$?
    if [ $rc -eq 0 ] && [ ! -s err ] && grep -q "EXIT STATUS\|DESCRIPTION" out; then pass "man $page renders without warnings"; else fail "man $page renders without warnings"; fi
    LAST="$page: $(zcat -f "$f" | grep -m1 '^\.TH')"
    rc=0
    check "man $page names meson.build's version ($version)" grep -q "^\.TH .*\"npuzzle $version\"" <(zcat -f "$f")
done
# npuzzle-mpi's page, where it is installed, is npuzzle(1)
f="$MAN/man1/npuzzle-mpi.1"
[ -f "$f" ] || f="$f.gz"
if [ -x "$BIN/npuzzle-mpi" ]; then
    LAST="man1/npuzzle-mpi.1: $(zcat -f "$f" 2>/dev/null)"
    rc=0
    check "man npuzzle-mpi: installed, as npuzzle(1)" grep -qx '\.so man1/npuzzle\.1' <(zcat -f "$f" 2>/dev/null)
fi

# bash completion
complete_words() { # LINE: what bash completes after it
    PATH="$BIN:$PATH" LD_LIBRARY_PATH="$LIB" bash -c '
        . "$1"
        read -ra COMP_WORDS <<<"$2"
        [[ $2 == *" " ]] && COMP_WORDS+=("")
        COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
        _npuzzle
        echo "${COMPREPLY[*]}"' _ "$DATA/bash-completion/completions/npuzzle" "$1"
}
# completes LINE WANT NAME: what bash completes after LINE is exactly WANT
completes() {
    local got
    got=$(complete_words "$1")
    LAST="completion of '$1': '$got'"
    check "bash completion: $3" test "$got" = "$2"
}
completes "npuzzle so" "solve" "'npuzzle so' gives solve"
completes "npuzzle solve --heu" "--heuristic" "'npuzzle solve --heu' gives --heuristic"
completes "npuzzle solve --prune " "fsm fsm12 parent" "the values of --prune"
completes "npuzzle info --format " "text json" "info's formats (no csv)"
completes "npuzzle gen --8" "--8bit" "'npuzzle gen --8' gives --8bit"
completes "npuzzle gen --partition 24" "24:6-6-6-6" "'npuzzle gen --partition 24' gives 24:6-6-6-6"

# Every option that completion offers is one its subcommand accepts: given as OPT=1 (an option
# that takes a value) or OPT (one that takes none) before an option that exists nowhere, the
# command must stop at the latter, never name OPT as unknown. Nothing runs: parsing stops first.
for sub in solve gen info verify random; do
    offered=$(complete_words "npuzzle $sub --")
    bad=
    for opt in $offered; do
        PATH="$BIN:$PATH" LD_LIBRARY_PATH="$LIB" npuzzle "$sub" "$opt=1" --zz-no-such-option </dev/null >out 2>err
        if grep -qF "'$opt=1'" err; then
            PATH="$BIN:$PATH" LD_LIBRARY_PATH="$LIB" npuzzle "$sub" "$opt" --zz-no-such-option </dev/null >out 2>err
            # (--help prints the usage and stops before the other option)
            grep -qF "unknown option '--zz-no-such-option'" err || grep -q "^usage: npuzzle $sub" out ||
                bad="$bad $opt"
        fi
    done
    LAST="npuzzle $sub: offered '$offered'; refused:${bad:- none}"
    check "bash completion: every option offered for $sub is accepted by it" test -n "$offered" -a -z "$bad"
done

# An option that takes a value (the command says so when it is given none) completes to its values,
# to paths where the value is a file or folder, or to nothing: never to the file names offered for
# a word of its own, as if it took none. (An option that takes none runs its command: gen only
# with --dry-run, solve on no boards, tables nowhere but here.)
free=$(complete_words "npuzzle solve ")
for sub in solve gen info verify random; do
    bad=
    dry=()
    [ "$sub" != gen ] || dry=(--dry-run)
    for opt in $(complete_words "npuzzle $sub --"); do
        case $opt in --checkpoint | --boards | --results | --pdb-dir) continue ;; esac
        PATH="$BIN:$PATH" LD_LIBRARY_PATH="$LIB" NPUZZLE_PDB_DIR="$T/nopdb" XDG_CACHE_HOME="$T/nocache" \
            timeout 60 npuzzle "$sub" "${dry[@]}" "$opt" </dev/null >out 2>err
        grep -qF "option '$opt' needs a value" err || continue
        [ "$(complete_words "npuzzle $sub $opt ")" != "$free" ] || bad="$bad $opt"
    done
    LAST="npuzzle $sub: options completed as if they took no value:${bad:- none}"
    check "bash completion: $sub's options that take a value are not followed by file names" \
        test -n "$free" -a -z "$bad"
done

# the project stands alone: no file of it names the sibling folder it was planned in, or a path
# of the machine it was written on
outside=$(cd "$SRC" && grep -rIlE -e "\.\./"'shared' -e '/'"work/" --exclude-dir='build*' --exclude='build*.log' --exclude-dir=.git \
    --exclude-dir=subprojects . 2>/dev/null)
LAST="grep for paths outside the repository: ${outside:-none}"
rc=0
check "no file names a path outside the repository" test -z "$outside"

cli_summary
