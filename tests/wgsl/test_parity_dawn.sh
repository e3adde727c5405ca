#!/bin/sh
# test_parity_dawn.sh - the execution-parity kernels (tests/parity/*.wgsl) on the reference
# implementation: each must validate with Tint (tests/oracle/tint-check.mjs) and run on Dawn's
# OpenGL ES backend on llvmpipe (tests/oracle/dawn-run.mjs), and its outputs must meet the
# kernel's own @expect / @expect-py / @assert-py lines (tests/oracle/expect.py).  Kernels whose
# @requires names a feature Dawn's GL adapter lacks (shader-f16, subgroups) are listed as
# unsupported, visibly; they still must validate.  A self-check feeds expect.py a kernel with a
# wrong expectation and requires it to fail.  Dawn's outputs stay in $BUILD/parity/dawn for
# tests/wgsl/test_parity.c (wgc on lavapipe vs Dawn).
set -u
BUILD=${BUILD:-build}
cd "$(dirname "$0")/../.." || exit 1
fail() { echo "test_parity_dawn: $*"; exit 1; }

pkg=$(sh tests/oracle/install.sh) || fail "cannot install the webgpu npm package"
tint=tests/oracle/tint-check.mjs

kernels=$(ls tests/parity/*.wgsl)
n=$(echo "$kernels" | wc -l)
[ "$n" -ge 60 ] || fail "only $n parity kernels (want >= 60)"

# 1. Tint accepts every kernel (all adapter features, so enable f16/subgroups validate).
bad=$(node "$tint" --pkg "$pkg" --quiet-info $kernels | grep -v '"ok":true')
[ -z "$bad" ] || { echo "$bad"; fail "Tint rejects parity kernels (above)"; }
echo "tint-check: $n kernels valid"

# 2. Run them all on Dawn in one process.
out=$BUILD/parity/dawn
rm -rf "$out" && mkdir -p "$out"
node tests/oracle/dawn-run.mjs --pkg "$pkg" --out "$out" $kernels >"$out/stdout.log" 2>"$out/stderr.log"
rc=$?
grep -v '^Warning: maxDynamic' "$out/stderr.log"
[ -f "$out/results.json" ] || fail "dawn-run wrote no results (exit $rc)"

# 3. Check every kernel's expectations.
python3 tests/oracle/expect.py "$out" $kernels || fail "expectations failed on Dawn"
ran=$(grep -c '"status": "ok"' "$out/results.json")
[ "$ran" -ge 60 ] || fail "only $ran kernels ran on Dawn (want >= 60)"

# 4. Self-check: a wrong expectation must be caught.
tmp=$BUILD/parity/selfcheck
rm -rf "$tmp" && mkdir -p "$tmp/k"
sed 's|^// @expect 0:2 i32 7,0,|// @expect 0:2 i32 8,0,|' tests/parity/int-div-zero.wgsl >"$tmp/k/int-div-zero.wgsl"
grep -q '@expect 0:2 i32 8,0,' "$tmp/k/int-div-zero.wgsl" || fail "self-check kernel not made"
if python3 tests/oracle/expect.py "$out" "$tmp/k/int-div-zero.wgsl" >"$tmp/log" 2>&1; then
  cat "$tmp/log"; fail "expect.py accepted a wrong expectation"
fi
grep -q 'expected 8' "$tmp/log" || { cat "$tmp/log"; fail "expect.py failed for the wrong reason"; }
echo "ok: $ran of $n kernels ran on Dawn and met their expectations"
