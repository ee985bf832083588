#!/usr/bin/env bash
# headers.sh - every public header compiles on its own, pedantic and warning-free, as C11 and
# (where a C++ compiler is present) as C++11.
# usage: headers.sh INCLUDE_DIR COMPILER...
set -u
inc=$1
shift
pass=0
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# compiles FILE LABEL COMPILER... FLAGS...: a pass, or a failure with the compiler's words
compiles() {
    local file=$1 label=$2
    shift 2
    if "$@" -Wall -Wextra -Wpedantic -Werror -fsyntax-only -I "$inc" "$file" 2>"$tmp/err"; then
        pass=$((pass + 1))
    else
        echo "FAIL $label:"
        cat "$tmp/err"
        fail=$((fail + 1))
    fi
}
cxx=${CXX:-c++}
command -v "$cxx" >/dev/null || { echo "skip C++: no $cxx"; cxx=; }
for h in "$inc"/npuzzle.h "$inc"/npuzzle/*.h; do
    name=${h#"$inc"/}
    # included twice: the guards
    printf '#include "%s"\n#include "%s"\nint np_header_test_%s;\n' "$name" "$name" "$(echo "$name" | tr -c 'a-z0-9\n' _)" >"$tmp/t.c"
    for std in c11 gnu11; do
        compiles "$tmp/t.c" "$name (-std=$std)" "$@" -std=$std
    done
    # as C++ (that it parses there; install.sh links a C++ program against the library)
    cp "$tmp/t.c" "$tmp/t.cc"
    [ -n "$cxx" ] && compiles "$tmp/t.cc" "$name (C++11)" "$cxx" -std=c++11
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
