#!/bin/sh
# test_null_args.sh - the NULL column of the misuse matrix: every public entry point of wg_, wgsl_,
# wt_ and wl_ (include/wgc/*.h, read through the preprocessor: tests/gpu/null_args.py) called with
# all its arguments zero must not crash, must not leak (under ASan: LeakSanitizer in each case's
# process) and must return its error value (tests/gpu/null_args_main.c).  The out-of-range and
# released-handle columns are rows of test_misuse.c (wg_) and of the layers' own tests.
# Built against $BUILD/libwgc.a with the sanitizer flags that library was built with.
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${BUILD:-build}
case $BUILD in /*) B=$BUILD ;; *) B=$ROOT/$BUILD ;; esac
fail() { echo "FAIL: $*"; exit 1; }
[ -f "$B/libwgc.a" ] || fail "no $B/libwgc.a (make first)"
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
py=python3; [ -x /usr/bin/python3 ] && py=/usr/bin/python3
"$py" "$ROOT/tests/gpu/null_args.py" "$ROOT" "$t/null_args.h" || fail "null_args.py"
san=
nm "$B/libwgc.a" 2>/dev/null | grep -q '__asan_report' && san="-fsanitize=address,undefined -fno-omit-frame-pointer"
${CC:-cc} -std=c11 -g -O1 $san -D_POSIX_C_SOURCE=200809L -I"$ROOT/include" -I"$t" -o "$t/null_args" \
    "$ROOT/tests/gpu/null_args_main.c" "$B/libwgc.a" -ldl -lm -lpthread || fail "cannot build the runner"
"$t/null_args"
