#!/bin/sh
# test_syntax_diff.sh - the parser against Tint on 400 deterministic mutants of the valid golden
# files (tests/wgsl/syntax_diff.py): wherever `wgc check --parse-only` reports an error, Tint must
# report the same first error (line, column, message).  Tint answers through
# tests/oracle/tint-check.mjs; the webgpu npm package is installed here (tests/oracle/install.sh).
# Env: BUILD.
set -u
BUILD=${BUILD:-build}
cd "$(dirname "$0")/../.." || exit 1
tint=tests/oracle/tint-check.mjs
[ -x "$BUILD/wgc" ] || { echo "test_syntax_diff: $BUILD/wgc not built"; exit 1; }
pkg=$(sh tests/oracle/install.sh) || { echo "test_syntax_diff: cannot install the webgpu npm package"; exit 1; }
exec python3 tests/wgsl/syntax_diff.py --tint "$tint" --pkg "$pkg" --wgc "$BUILD/wgc" --count 400
