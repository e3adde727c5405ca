#!/bin/sh
# test_syntax_diff.sh - the parser against Tint on 400 deterministic mutants of the valid golden
# files (tests/wgsl/syntax_diff.py): wherever `wgc check --parse-only` reports an error, Tint must
# report the same first error (line, column, message).  Installs the webgpu npm package itself
# (tests/oracle/install.sh).  Env: BUILD, WGC_SHARED (where ../shared is not next to the checkout).
set -u
BUILD=${BUILD:-build}
cd "$(dirname "$0")/../.." || exit 1
tint=""
for t in ../shared/tools/tint-check.mjs ${WGC_SHARED:+"$WGC_SHARED/tools/tint-check.mjs"}; do
  [ -f "$t" ] && { tint=$t; break; }
done
[ -n "$tint" ] || { echo "test_syntax_diff: tint-check.mjs not found (set WGC_SHARED)"; exit 1; }
[ -x "$BUILD/wgc" ] || { echo "test_syntax_diff: $BUILD/wgc not built"; exit 1; }
pkg=$(sh tests/oracle/install.sh) || { echo "test_syntax_diff: cannot install the webgpu npm package"; exit 1; }
exec python3 tests/wgsl/syntax_diff.py --tint "$tint" --pkg "$pkg" --wgc "$BUILD/wgc" --count 400
