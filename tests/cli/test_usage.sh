#!/bin/sh
# CLI basics: usage on no args (exit 2), --help (exit 0), unknown command (exit 2, one line).
W=${BUILD:-build}/wgc
fail=0
$W >/dev/null 2>&1; [ $? -eq 2 ] || { echo "no-arg exit not 2"; fail=1; }
$W --help | grep -q '^commands:' || { echo "--help lacks command list"; fail=1; }
out=$($W frobnicate 2>&1); rc=$?
[ $rc -eq 2 ] || { echo "unknown command exit $rc"; fail=1; }
[ "$(echo "$out" | wc -l)" -eq 1 ] || { echo "unknown command: not one line: $out"; fail=1; }
exit $fail
