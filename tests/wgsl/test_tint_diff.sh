#!/bin/sh
# test_tint_diff.sh - the differential test of `wgc check` against Tint (Dawn's WGSL validator,
# npm package "webgpu", through tests/oracle/tint-check.mjs) over every .wgsl file in the
# repository: same accept/reject, and for rejected files the same first error line.  Deviations
# need a line with a reason in tests/wgsl/tint-diff-allow.txt.  The work is done by
# tests/oracle/tint_diff.sh; this adds a floor on the number of files compared, so the test
# cannot pass by finding nothing.
set -u
BUILD=${BUILD:-build}
export BUILD
cd "$(dirname "$0")/../.." || exit 1
out=$(sh tests/oracle/tint_diff.sh 2>&1)
rc=$?
echo "$out"
n=$(echo "$out" | sed -n 's/^tint_diff: \([0-9]*\) files.*/\1/p')
[ -n "$n" ] && [ "$n" -ge 60 ] || { echo "test_tint_diff: compared ${n:-no} files (want >= 60)"; exit 1; }
exit $rc
