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
for h in "$inc"/npuzzle.h "$inc"/npuzzle/*.h; do
    name=${h#"$inc"/}
    printf '#include "%s"\n#include "%s"\nint np_header_test_%s;\n' "$name" "$name" "$(echo "$name" | tr -c 'a-z0-9\n' _)" > "$tmp/t.c"
    for std in c11 gnu11; do
        if "$@" -std=$std -Wall -Wextra -Wpedantic -Werror -fsyntax-only -I "$inc" "$tmp/t.c" 2> "$tmp/err"; then
            pass=$((pass + 1))
        else
            echo "FAIL $name (-std=$std):"
            cat "$tmp/err"
            fail=$((fail + 1))
        fi
    done
done
# and as C++ (the declarations inside extern "C"), where a C++ compiler is present
cxx=${CXX:-c++}
if command -v "$cxx" >/dev/null; then
    for h in "$inc"/npuzzle.h "$inc"/npuzzle/*.h; do
        name=${h#"$inc"/}
        printf '#include "%s"\n#include "%s"\nint main() { return 0; }\n' "$name" "$name" > "$tmp/t.cc"
        if "$cxx" -std=c++11 -Wall -Wextra -Wpedantic -Werror -fsyntax-only -I "$inc" "$tmp/t.cc" 2> "$tmp/err"; then
            pass=$((pass + 1))
        else
            echo "FAIL $name (C++11):"
            cat "$tmp/err"
            fail=$((fail + 1))
        fi
    done
else
    echo "skip C++: no $cxx"
fi
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
