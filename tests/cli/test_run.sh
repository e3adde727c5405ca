#!/bin/sh
# wgc run / wgc profile end to end on the default adapter (lavapipe in CI): valid and invalid
# kernels, bad flags, missing files, .npy round trips (numpy-format files written by python3's
# struct module and by wgc itself), overrides, JSON output and exit codes (0 ok, 1 invalid kernel,
# 2 usage / file / binding errors).
W=$(cd "$(dirname "${BUILD:-build}/wgc")" && pwd)/wgc
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
cd "$T" || exit 1
export WGC_NO_PROGRESS=1
fail=0
bad() { echo "FAIL: $*"; fail=1; }
expect_rc() { want=$1; shift; "$@" >out.txt 2>err.txt; rc=$?; [ $rc -eq "$want" ] || { bad "exit $rc (want $want): $*"; cat out.txt err.txt; }; }

cat > k.wgsl <<'K'
@group(0) @binding(0) var<storage, read> x: array<f32>;
@group(0) @binding(1) var<storage, read_write> y: array<f32>;
override scale: f32 = 2.0;
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    if (id.x < arrayLength(&x)) { y[id.x] = x[id.x] * scale + 1.0; }
}
K
cat > bad.wgsl <<'K'
@compute @workgroup_size(1) fn main() { let a: u32 = 1.5; }
K
cat > u.wgsl <<'K'
struct P { n: u32, add: i32 }
@group(0) @binding(0) var<uniform> p: P;
@group(1) @binding(0) var<storage, read_write> v: array<i32>;
@compute @workgroup_size(8, 1, 1)
fn twice(@builtin(global_invocation_id) id: vec3<u32>) { if (id.x < p.n) { v[id.x] = v[id.x] * 2 + p.add; } }
@compute @workgroup_size(8) fn other() { v[0] = 7; }
K

# help and usage
expect_rc 0 "$W" run --help; grep -q 'zeros:T:SHAPE' out.txt || bad "run --help lacks SPEC forms"
expect_rc 0 "$W" profile --help; grep -q -- '--repeat' out.txt || bad "profile --help lacks --repeat"
expect_rc 2 "$W" run
expect_rc 2 "$W" run k.wgsl --bind 0:0=zeros:f32:4                   # no --dispatch
expect_rc 2 "$W" run k.wgsl --dispatch 1 --frob
expect_rc 2 "$W" run k.wgsl --dispatch 1,2,3,4
expect_rc 2 "$W" run k.wgsl --dispatch
expect_rc 2 "$W" run k.wgsl --dispatch 1 --bind 0:0=zeros:f64:4
expect_rc 2 "$W" run k.wgsl --dispatch 1 --bind 0:0=zeros:f32:0
# fill values the dtype cannot hold are refused, not wrapped (u32 -1 was 4294967295)
expect_rc 2 "$W" run k.wgsl --dispatch 1 --bind 0:0=fill:u32:4:-1
grep -q 'value -1 does not fit u32' err.txt || bad "fill u32 -1: $(cat err.txt)"
expect_rc 2 "$W" run k.wgsl --dispatch 1 --bind 0:0=fill:i32:4:2147483648
expect_rc 2 "$W" run k.wgsl --dispatch 1 --bind 0:0=fill:i32:4:1.5
expect_rc 2 "$W" run k.wgsl --dispatch 1 --bind 0:0=fill:f16:4:70000
# --json prints one document on every exit, errors before the kernel runs included
for args in "--bind 0:0=missing.npy --json" "--bind 0:0=fill:u32:4:-1 --json" "--json --frob"; do
  expect_rc 2 "$W" run k.wgsl --dispatch 1 $args
  python3 -c "import json,sys; d=json.load(open('out.txt')); assert d['ok'] is False and d['message'], d" ||
    bad "--json error document ($args): $(cat out.txt)"
done
expect_rc 2 "$W" run k.wgsl --dispatch 1 --bind 0:0=rand:f32:4
expect_rc 2 "$W" run k.wgsl --dispatch 1 --bind 0:0=out:y.npy
expect_rc 2 "$W" run k.wgsl --dispatch 1 --bind x=zeros:f32:4
expect_rc 2 "$W" run k.wgsl --dispatch 1 --bind 0:0=zeros:f32:4 --bind 0:0=zeros:f32:4
expect_rc 2 "$W" profile k.wgsl --dispatch 1 --repeat 0
expect_rc 2 "$W" profile k.wgsl --dispatch 1 --bytes -5
expect_rc 2 "$W" run k.wgsl --dispatch 1 --repeat 5                  # profile-only flag
# missing files
expect_rc 2 "$W" run nope.wgsl --dispatch 1
grep -q "cannot read 'nope.wgsl'" err.txt || bad "missing kernel message: $(cat err.txt)"
expect_rc 2 "$W" run k.wgsl --dispatch 1 --bind 0:0=missing.npy --bind 0:1=zeros:f32:4
grep -q 'missing.npy' err.txt || bad "missing .npy message: $(cat err.txt)"
printf 'not a numpy file at all' > junk.npy
expect_rc 2 "$W" run k.wgsl --dispatch 1 --bind 0:0=junk.npy --bind 0:1=zeros:f32:4
# invalid kernel: diagnostics on stderr, exit 1
expect_rc 1 "$W" run bad.wgsl --dispatch 1
grep -q 'bad.wgsl:1:.*error' err.txt || bad "invalid kernel diagnostics: $(cat err.txt)"
expect_rc 1 "$W" run bad.wgsl --dispatch 1 --json
python3 -c "import json,sys; d=json.load(open('out.txt')); assert d['ok'] is False and d['error']=='WG_ERR_WGSL_COMPILE', d" || bad "invalid kernel json"
expect_rc 2 "$W" run k.wgsl --dispatch 1 --bind 0:0=zeros:f32:4 --bind 0:1=zeros:f32:4 --override sclae=3
grep -q "declares no override 'sclae'" err.txt || bad "unknown override message: $(cat err.txt)"
# binding mismatches
expect_rc 2 "$W" run k.wgsl --dispatch 1 --bind 0:0=zeros:f32:4
grep -q 'binding(1)' err.txt || bad "missing binding message: $(cat err.txt)"
expect_rc 2 "$W" run k.wgsl --dispatch 1 --bind 0:0=zeros:f32:4 --bind 0:1=zeros:f32:4 --bind 0:5=zeros:f32:4
expect_rc 2 "$W" run k.wgsl --dispatch 1 --entry nosuch --bind 0:0=zeros:f32:4 --bind 0:1=zeros:f32:4
expect_rc 2 "$W" run u.wgsl --dispatch 1 --bind 0:0=zeros:u32:2 --bind 1:0=zeros:i32:8   # two entry points

# a run: arange in, y = 3x + 1 with the override, written to y.npy
expect_rc 0 "$W" run k.wgsl --dispatch 2 --bind 0:0=arange:f32:100 --bind 0:1=zeros:f32:100,out:y.npy --override scale=3
grep -q 'f32\[100\] -> y.npy  min 1  max 298 ' out.txt || bad "run summary: $(cat out.txt)"
python3 - <<'P' || bad "y.npy content"
import struct
b = open('y.npy', 'rb').read()
assert b[:6] == b'\x93NUMPY', b[:10]
hl = struct.unpack('<H', b[8:10])[0]
h = b[10:10 + hl].decode()
assert "'descr': '<f4'" in h and "(100,)" in h, h
v = struct.unpack('<100f', b[10 + hl:])
assert all(v[i] == 3 * i + 1 for i in range(100)), v[:5]
P
# .npy round trip: y.npy back in as input (y2 = 2*y + 1), 2-D shape kept, JSON output
python3 - <<'P'
import struct
h = "{'descr': '<f4', 'fortran_order': False, 'shape': (4, 8), }"
h += ' ' * (64 - 10 - len(h) - 1) + '\n'
open('m.npy', 'wb').write(b'\x93NUMPY\x01\x00' + struct.pack('<H', len(h)) + h.encode() + struct.pack('<32f', *[i * 0.5 for i in range(32)]))
P
expect_rc 0 "$W" run k.wgsl --dispatch 1 --bind 0:0=m.npy --bind 0:1=zeros:f32:4x8,out:m2.npy --json
python3 - <<'P' || bad "round trip json/npy: $(cat out.txt)"
import json, struct
d = json.load(open('out.txt'))
assert d['ok'] and d['entry'] == 'main' and d['workgroupSize'] == [64, 1, 1], d
o = d['outputs'][0]
assert o['shape'] == [4, 8] and o['dtype'] == 'f32' and o['min'] == 1 and o['max'] == 32, o
assert o['first'][:3] == [1, 2, 3], o
b = open('m2.npy', 'rb').read(); hl = struct.unpack('<H', b[8:10])[0]
assert "'shape': (4, 8" in b[10:10 + hl].decode(), b[10:10 + hl]
v = struct.unpack('<32f', b[10 + hl:])
assert v == tuple(i * 1.0 + 1 for i in range(32)), v
P
expect_rc 0 "$W" run k.wgsl --dispatch 1 --bind 0:0=m2.npy --bind 0:1=zeros:f32:32,out:m3.npy
grep -q 'min 3  max 65 ' out.txt || bad "second round trip: $(cat out.txt)"
# uniform struct + i32 storage in group 1, entry chosen; no out: -> the read_write binding is summarised
expect_rc 0 "$W" run u.wgsl --entry twice --dispatch 1 --bind 0:0=fill:u32:2:6 --bind 1:0=arange:i32:8
grep -q '1:0 i32\[8\]  min 6  max 16  mean 9.875  \[6, 8, 10, 12, 14, 16, ...\]' out.txt || bad "uniform run: $(cat out.txt)"
# rand: same seed -> same numbers, floats in [0,1), ints in [0,100)
expect_rc 0 "$W" run k.wgsl --dispatch 4 --bind 0:0=rand:f32:256:42,out:r1.npy --bind 0:1=zeros:f32:256 --override scale=0
expect_rc 0 "$W" run k.wgsl --dispatch 4 --bind 0:0=rand:f32:256:42,out:r2.npy --bind 0:1=zeros:f32:256 --override scale=0
cmp -s r1.npy r2.npy || bad "rand not reproducible"
expect_rc 0 "$W" run k.wgsl --dispatch 4 --bind 0:0=rand:f32:256:43,out:r3.npy --bind 0:1=zeros:f32:256
cmp -s r1.npy r3.npy && bad "rand ignores the seed"
python3 -c "
import struct; b=open('r1.npy','rb').read(); v=struct.unpack('<256f', b[-1024:]); assert all(0<=x<1 for x in v) and max(v)-min(v)>0.5, v[:4]" || bad "rand range"
expect_rc 0 "$W" run u.wgsl --entry other --dispatch 1 --bind 1:0=rand:i32:64:1,out:ri.npy --json
python3 -c "
import json; o=json.load(open('out.txt'))['outputs'][0]; assert o['dtype']=='i32' and 0<=o['min'] and o['max']<100 and o['first'][0]==7, o" || bad "rand i32: $(cat out.txt)"
# f16 when the adapter has shader-f16
if "$W" info --json | grep -q '"shader-f16"'; then
  cat > h.wgsl <<'K'
enable f16;
@group(0) @binding(0) var<storage, read_write> v: array<f16>;
@compute @workgroup_size(4) fn main(@builtin(global_invocation_id) id: vec3<u32>) { v[id.x] = v[id.x] * 0.5h; }
K
  expect_rc 0 "$W" run h.wgsl --dispatch 1 --bind 0=fill:f16:4:3,out:h.npy
  grep -q 'f16\[4\] -> h.npy  min 1.5  max 1.5' out.txt || bad "f16 run: $(cat out.txt)"
  python3 -c "b=open('h.npy','rb').read(); assert \"'<f2'\" in b[:64].decode('latin1') and len(b) == 128 + 8" || bad "f16 npy"
fi

# profile: timestamp statistics, GB/s, JSON
expect_rc 0 "$W" profile k.wgsl --dispatch 16 --bind 0:0=rand:f32:1024:1 --bind 0:1=zeros:f32:1024 --repeat 20 --warmup 3 --bytes 8192 --flops 2048
for w in '^compile ' '^pipeline ' '^gpu time   min .* median .* max .* spread' '20 runs after 3 warmup' '^bandwidth .* GB/s' '^compute .* GFLOP/s'; do
  grep -q "$w" out.txt || bad "profile text lacks '$w': $(cat out.txt)"
done
expect_rc 0 "$W" profile k.wgsl --dispatch 16 --bind 0:0=rand:f32:1024:1 --bind 0:1=zeros:f32:1024 --repeat 7 --warmup 0 --bytes 8192 --json
python3 - <<'P' || bad "profile json: $(cat out.txt)"
import json
d = json.load(open('out.txt'))
assert d['ok'] and d['repeat'] == 7 and len(d['samplesNs']) == 7, d
assert 0 < d['minNs'] <= d['medianNs'] <= d['maxNs'], d
assert d['compileMs'] > 0 and d['pipelineMs'] > 0 and d['timer'] in ('timestamp', 'wall'), d
assert abs(d['gbPerS'] - 8192 / d['medianNs']) < 1e-3 * d['gbPerS'], d
assert sorted(d['samplesNs'])[3] == d['medianNs'], d
# the driver's figures where the adapter reports them (NVIDIA: registers ...); none on lavapipe
stats = d['driverStatistics']
assert isinstance(stats, dict) and all(isinstance(v, (int, float)) for v in stats.values()), d
P
if "$W" info | grep -q pipeline-statistics; then
  "$W" profile k.wgsl --dispatch 16 --bind 0:0=rand:f32:1024:1 --bind 0:1=zeros:f32:1024 --repeat 2 >out.txt 2>&1 && grep -q '^driver ' out.txt || bad "profile text lacks the driver's statistics: $(cat out.txt)"
fi
expect_rc 0 "$W" profile k.wgsl --dispatch 1 --bind 0:0=zeros:f32:64 --bind 0:1=zeros:f32:64 --repeat 3 --wall-clock --json
grep -q '"timer":"wall"' out.txt || bad "--wall-clock"
# --no-bounds-checks (profile only): an out-of-bounds read is clamped to the last element by default
# and, unclamped, reaches the driver's robust buffer access (zero) where the device has it
cat > oob.wgsl <<'K'
@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read_write> b: array<f32>;
@compute @workgroup_size(1) fn main() { b[0] = a[arrayLength(&a) + 5u]; }
K
expect_rc 2 "$W" run oob.wgsl --dispatch 1 --bind 0:0=arange:f32:64 --bind 0:1=zeros:f32:4 --no-bounds-checks
for nb in "" --no-bounds-checks; do
  expect_rc 0 "$W" profile oob.wgsl --dispatch 1 --bind 0:0=arange:f32:64 --bind 0:1=zeros:f32:4 --repeat 1 --warmup 0 --json $nb
  v=$(python3 -c 'import json,sys; print(json.load(open("out.txt"))["outputs"][0]["first"][0])')
  if [ -z "$nb" ]; then
    [ "$v" = "63.0" ] || [ "$v" = "63" ] || bad "clamped out-of-bounds read gave $v, not 63"
  elif "$W" info | grep -q robust-buffer-access2; then
    [ "$v" = "0.0" ] || [ "$v" = "0" ] || bad "--no-bounds-checks: the read gave $v, not robust access's 0"
  else
    echo "note: no robust-buffer-access2 on this adapter: --no-bounds-checks's value not checked"
  fi
done
exit $fail
