#!/bin/sh
# test_spirv_vk13.sh - execution parity of the Vulkan 1.3 target: every tests/parity kernel is
# compiled with `wgc compile --target vulkan1.3` (SPIR-V 1.6: full entry point interfaces,
# OpSDot/OpUDot for the packed 4x8 dot products), checked with spirv-val, and run by the parity
# driver (tests/wgsl/test_parity.c, WGC_PARITY_SPV_DIR) against the kernels' expectations and
# Dawn's outputs.  @override lines become --override options.
BUILD=${BUILD:-build}
W=$BUILD/wgc
P=$BUILD/tests/wgsl/test_parity
[ -x "$W" ] && [ -x "$P" ] || { echo "no $W or $P (make tests first)"; exit 1; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0; n=0
for f in tests/parity/*.wgsl; do
  b=$(basename "$f" .wgsl)
  ov=$(sed -n 's|^// @override||p' "$f" | tr ' ' '\n' | grep = | sed 's/^/--override /' | tr '\n' ' ')
  # shellcheck disable=SC2086
  if ! "$W" compile --target vulkan1.3 $ov "$f" -o "$tmp/$b.spv" >"$tmp/out" 2>&1; then
    echo "FAIL $b: $(head -3 "$tmp/out")"; fail=$((fail+1)); continue
  fi
  spirv-val --target-env vulkan1.3 "$tmp/$b.spv" >"$tmp/val" 2>&1 || { echo "FAIL $b: spirv-val: $(head -2 "$tmp/val")"; fail=$((fail+1)); }
  n=$((n+1))
done
echo "$n kernels compiled for Vulkan 1.3"
[ $n -ge 60 ] || { echo "FAIL: only $n kernels"; fail=$((fail+1)); }
# A kernel listed in tests/wgsl/parity-known.txt may pass here (SPIR-V 1.6 entry points list the
# variables they use, which the runtime's reflection relies on); that "STALE" note is no failure.
WGC_PARITY_SPV_DIR=$tmp "$P" >"$tmp/parity" 2>&1
tail -1 "$tmp/parity"
nstale=$(grep -c '^STALE' "$tmp/parity")
if ! grep -q ' 0 failed, [0-9]* known failures (XFAIL), '"$nstale"' other problems' "$tmp/parity"; then
  grep -v '^ok' "$tmp/parity" | tail -20
  echo "FAIL: parity on the SPIR-V 1.6 modules"; fail=$((fail+1))
fi
[ $fail -eq 0 ]
