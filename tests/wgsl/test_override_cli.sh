#!/bin/sh
# test_override_cli.sh - override values on the command line, against WebGPU's pipeline-constant
# rules (tests/wgsl/test_overrides.c has the full value table through the C API): `wgc compile
# --override` and `wgc run --override` refuse a key naming no override (an @id'd override's key is
# its id), a value its type cannot hold and a workgroup size below 1 with exit status 2 and a
# message, apply accepted values (integer part for integer types), and `wgc run` refuses a run
# that leaves an override without initializer unset.  The runs use the default adapter (lavapipe
# here) with one invocation each.
# Env: BUILD (build dir, default build).
BUILD=${BUILD:-build}
W=$(cd "$(dirname "$BUILD/wgc")" && pwd)/wgc
[ -x "$W" ] || { echo "no $W (make first)"; exit 1; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=$((fail+1)); }
# expect RC MESSAGE-SUBSTRING CMD...: exit status and a line of stderr
expect() {
  want=$1 msg=$2; shift 2
  "$@" >"$tmp/out" 2>"$tmp/err"; rc=$?
  [ $rc -eq "$want" ] || bad "$*: exit $rc, want $want: $(head -3 "$tmp/err")"
  [ -z "$msg" ] || grep -qF -- "$msg" "$tmp/err" || bad "$*: no '$msg' in: $(head -3 "$tmp/err")"
}
cat >"$tmp/k.wgsl" <<'E'
override scale: u32 = 1;
override bias: i32 = 0;
override gain: f32 = 1.0;
@id(7) override wx: u32 = 1;
@group(0) @binding(0) var<storage, read_write> o: array<i32>;
@compute @workgroup_size(wx) fn main() { o[0] = i32(scale) + bias + i32(gain); }
E
cd "$tmp" || exit 1
# compile: refused keys and values
expect 2 "pipeline constant 'scale': value 5000000000 is not representable in type 'u32'" "$W" compile k.wgsl -o k.spv --override scale=5e9
expect 2 "pipeline constant 'scale': value -1 is not representable in type 'u32'" "$W" compile k.wgsl -o k.spv --override scale=-1
expect 2 "pipeline constant 'bias': value 3000000000 is not representable in type 'i32'" "$W" compile k.wgsl -o k.spv --override bias=3e9
expect 2 "pipeline constant 'gain': value nan is not finite" "$W" compile k.wgsl -o k.spv --override gain=nan
expect 2 "pipeline constant 'gain': value inf is not finite" "$W" compile k.wgsl -o k.spv --override gain=inf
expect 2 "is not representable in type 'f32'" "$W" compile k.wgsl -o k.spv --override gain=1e39
expect 2 "the module declares no override 'sclae'" "$W" compile k.wgsl -o k.spv --override sclae=2
expect 2 "override 'wx' has @id(7), so its key is '7'" "$W" compile k.wgsl -o k.spv --override wx=2
expect 2 "declares no override with @id(8)" "$W" compile k.wgsl -o k.spv --override 8=2
expect 2 "'@workgroup_size' argument must be at least 1, is 0" "$W" compile k.wgsl -o k.spv --override 7=0
[ -e k.spv ] && bad "a refused override still wrote k.spv"
# compile: accepted values, integer part for integer types
expect 0 "" "$W" compile --reflect k.wgsl --override 7=3.9 --override scale=4294967295 --override bias=-2147483648.5 --override gain=3.4028234e38
grep -q '"workgroupSize":\[3,1,1\]' out || bad "7=3.9: workgroup size not 3: $(cat out)"
# the module is still invalid (exit 1) when the WGSL is, override or not
printf 'fn f( {\n' >bad.wgsl
expect 1 "bad.wgsl:" "$W" compile bad.wgsl -o bad.spv --override sclae=2
# run: the same checks at pipeline creation, and an override without initializer must be given
cat >n.wgsl <<'E'
override n: u32;
@group(0) @binding(0) var<storage, read_write> o: array<u32>;
@compute @workgroup_size(1) fn main() { o[0] = n; }
E
expect 2 "pipeline constant 'n' is not set" "$W" run n.wgsl --dispatch 1 --bind 0:0=zeros:u32:1
expect 2 "pipeline constant 'n': value 5000000000 is not representable in type 'u32'" "$W" run n.wgsl --dispatch 1 --bind 0:0=zeros:u32:1 --override n=5e9
expect 2 "the module declares no override 'm'" "$W" run n.wgsl --dispatch 1 --bind 0:0=zeros:u32:1 --override n=1 --override m=1
expect 0 "" "$W" run n.wgsl --dispatch 1 --bind 0:0=zeros:u32:1,out:o.npy --override n=4294967295.7
/usr/bin/python3 -c "import numpy as np; v = np.load('o.npy'); assert v.dtype == np.uint32 and int(v[0]) == 4294967295, v" ||
  bad "run n=4294967295.7: o[0] is not 4294967295"
[ $fail -eq 0 ] && echo "override CLI: all passed"
exit $fail
