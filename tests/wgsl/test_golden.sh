#!/bin/sh
# test_golden.sh - the compiler's golden files: every tests/wgsl/golden/<spec-clause>-<what>.wgsl
# is run through the wgc binary and compared (diff -u) with what lies beside it:
#   NAME.err     the exact `wgc check NAME.wgsl` output (run inside golden/, so paths are bare);
#                exit status must be 1 when it holds an error, else 0
#   NAME.spvasm  the `spirv-dis` text of `wgc compile NAME.wgsl -o NAME.spv`; the module must also
#                pass `spirv-val --target-env vulkan1.1` (vulkan1.3 when NAME contains "vk13")
#   neither      the file must be valid: `wgc check` prints nothing and exits 0
# UPDATE=1 rewrites the .err / .spvasm files from the current output (only those that exist,
# plus .err for invalid files that have neither).  Read every regenerated file and verify it by
# hand (and against Tint: node tests/oracle/tint-check.mjs FILE) before committing.
# Env: BUILD (build dir, default build), GOLDEN_FILTER (substring of names to run).
BUILD=${BUILD:-build}
W=$(cd "$(dirname "$BUILD/wgc")" && pwd)/wgc
dir=$(cd "$(dirname "$0")/golden" && pwd)
[ -x "$W" ] || { echo "no $W (make first)"; exit 1; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
pass=0; fail=0; n=0
cd "$dir" || exit 1
for f in *.wgsl; do
  [ -e "$f" ] || continue
  case "$f" in *"${GOLDEN_FILTER:-}"*) ;; *) continue ;; esac
  n=$((n+1))
  base=${f%.wgsl}
  if [ -f "$base.spvasm" ]; then
    env=vulkan1.1; case "$base" in *vk13*) env=vulkan1.3 ;; esac
    if ! "$W" compile "$f" -o "$tmp/$base.spv" >"$tmp/out" 2>&1; then
      echo "FAIL $f: wgc compile failed:"; sed 's/^/  /' "$tmp/out"; fail=$((fail+1)); continue
    fi
    if ! spirv-val --target-env $env "$tmp/$base.spv" >"$tmp/val" 2>&1; then
      echo "FAIL $f: spirv-val:"; sed 's/^/  /' "$tmp/val"; fail=$((fail+1)); continue
    fi
    spirv-dis --no-header "$tmp/$base.spv" >"$tmp/dis" 2>&1 || spirv-dis "$tmp/$base.spv" >"$tmp/dis" 2>&1
    if [ -n "${UPDATE:-}" ]; then cp "$tmp/dis" "$base.spvasm"; fi
    if diff -u "$base.spvasm" "$tmp/dis" >"$tmp/diff"; then pass=$((pass+1)); else
      echo "FAIL $f: SPIR-V differs"; sed 's/^/  /' "$tmp/diff" | head -40; fail=$((fail+1)); fi
    continue
  fi
  "$W" check "$f" >"$tmp/out" 2>&1; rc=$?
  if [ -f "$base.err" ] || { [ -n "${UPDATE:-}" ] && [ -s "$tmp/out" ]; }; then
    [ -n "${UPDATE:-}" ] && cp "$tmp/out" "$base.err"
    want=0; grep -q ': error: ' "$base.err" && want=1
    if ! diff -u "$base.err" "$tmp/out" >"$tmp/diff"; then
      echo "FAIL $f: diagnostics differ"; sed 's/^/  /' "$tmp/diff" | head -40; fail=$((fail+1))
    elif [ $rc -ne $want ]; then
      echo "FAIL $f: exit $rc, want $want"; fail=$((fail+1))
    else pass=$((pass+1)); fi
  else
    if [ $rc -ne 0 ] || [ -s "$tmp/out" ]; then
      echo "FAIL $f: expected valid (exit $rc):"; sed 's/^/  /' "$tmp/out" | head -20; fail=$((fail+1))
    else pass=$((pass+1)); fi
  fi
done
echo "golden: $n cases, $pass passed, $fail failed"
[ $n -gt 0 ] || { echo "no golden files found"; exit 1; }
[ $fail -eq 0 ]
