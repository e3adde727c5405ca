#!/bin/sh
# tint_diff.sh - `wgc check` against Tint over every .wgsl file in the repository: same
# accept/reject, and for rejected files the same first error line (tests/oracle/tint_diff.py).
# Disagreements fail unless listed, with a reason, in tests/wgsl/tint-diff-allow.txt.
# Kept out of the suite until wgc check agrees; the suite copy is tests/wgsl/test_tint_diff.sh.
# Tint answers through tests/oracle/tint-check.mjs.
# Usage: sh tests/oracle/tint_diff.sh [-v] [FILE...]     env: BUILD
set -u
BUILD=${BUILD:-build}
cd "$(dirname "$0")/../.." || exit 1
fail() { echo "tint_diff: $*"; exit 1; }
verbose=""
[ "${1:-}" = -v ] && { verbose=--verbose; shift; }
tint=tests/oracle/tint-check.mjs
[ -x "$BUILD/wgc" ] || fail "$BUILD/wgc not built (make)"
pkg=$(sh tests/oracle/install.sh) || fail "cannot install the webgpu npm package"
exec python3 tests/oracle/tint_diff.py --tint "$tint" --pkg "$pkg" --wgc "$BUILD/wgc" \
  --allow tests/wgsl/tint-diff-allow.txt $verbose "$@"
