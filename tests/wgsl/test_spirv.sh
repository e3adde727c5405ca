#!/bin/sh
# test_spirv.sh - `wgc compile` over every valid kernel we have, for both targets, each module
# checked by spirv-val; then the command's options: --reflect JSON, --override, --entry,
# --no-bounds-checks, --target, exit statuses and the default output name.
# Env: BUILD (build dir, default build).
BUILD=${BUILD:-build}
W=$(cd "$(dirname "$BUILD/wgc")" && pwd)/wgc
[ -x "$W" ] || { echo "no $W (make first)"; exit 1; }
command -v spirv-val >/dev/null || { echo "spirv-val missing (sh scripts/deps.sh)"; exit 1; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0; n=0
bad() { echo "FAIL: $*"; fail=$((fail+1)); }

# 1. every parity kernel and every SPIR-V golden, Vulkan 1.1 (SPIR-V 1.3) and 1.3 (SPIR-V 1.6)
files="$(ls tests/parity/*.wgsl) $(ls tests/wgsl/golden/*.spvasm | sed 's/\.spvasm$/.wgsl/')"
for f in $files; do
  for env in vulkan1.1 vulkan1.3; do
    n=$((n+1))
    if ! "$W" compile --target $env "$f" -o "$tmp/m.spv" >"$tmp/out" 2>&1; then
      bad "$f ($env): compile failed: $(head -3 "$tmp/out")"; continue
    fi
    spirv-val --target-env $env "$tmp/m.spv" >"$tmp/val" 2>&1 || bad "$f ($env): spirv-val: $(head -3 "$tmp/val")"
  done
done
echo "compiled and validated $n modules"
ver() { od -An -tx4 -j4 -N4 "$1" | tr -d ' '; }
"$W" compile --target vulkan1.3 tests/parity/int-div-zero.wgsl -o "$tmp/a.spv" && [ "$(ver "$tmp/a.spv")" = 00010600 ] || bad "vulkan1.3 is not SPIR-V 1.6"
"$W" compile tests/parity/int-div-zero.wgsl -o "$tmp/a.spv" && [ "$(ver "$tmp/a.spv")" = 00010300 ] || bad "default is not SPIR-V 1.3"

# 2. shapes the kernels above do not have: structs of 300 members, constants of 2000 elements,
#    a 100-argument call, 2000 switch cases; a struct with a runtime array used by two buffers;
#    storage pointers to runtime arrays passed to functions (hidden length parameter); unreachable
#    merges; a workgroup size left to specialisation
python3 - "$tmp/big.wgsl" <<'PY'
import sys
src = "struct Big {\n" + "".join(f"  m{i}: u32,\n" for i in range(300)) + "}\n"
src += "@group(0) @binding(0) var<storage, read_write> out: array<u32>;\n"
src += "@group(0) @binding(1) var<storage, read_write> big: Big;\n"
src += "const T = array<u32, 2000>(" + ",".join(f"{i}u" for i in range(2000)) + ");\n"
src += "fn many(" + ",".join(f"p{i}: u32" for i in range(100)) + ") -> u32 { return p0 + p99; }\n"
src += "@compute @workgroup_size(1)\nfn main(@builtin(global_invocation_id) g: vec3u) {\n"
src += "  let a = array<u32, 100>(" + ",".join(f"out[{i}]" for i in range(100)) + ");\n"
src += "  out[0] = T[g.x] + a[g.y] + big.m299 + many(" + ",".join(f"out[{i}]" for i in range(100)) + ");\n"
src += "  switch (g.x) {\n" + "".join(f"    case {i}u: {{ out[1] = {i}u; }}\n" for i in range(2000)) + "    default: {}\n  }\n}\n"
open(sys.argv[1], "w").write(src)
PY
cat >"$tmp/shared.wgsl" <<'EOF'
struct S { n: u32, d: array<u32> }
@group(0) @binding(0) var<storage, read_write> a: S;
@group(0) @binding(1) var<storage, read_write> b: S;
fn len(p: ptr<storage, array<u32>, read_write>) -> u32 { return arrayLength(p) + p[7]; }
fn g(x: u32) -> u32 { switch (x) { case 0u: { return 1u; } default: { return 2u; } } }
fn h(x: u32) -> u32 { if (x > 1u) { return 1u; } else { return 3u; } }
@compute @workgroup_size(1)
fn main() {
  a.d[0] = b.d[arrayLength(&b.d) - 1u] + len(&a.d) + g(a.n) + h(b.n);
  loop { if (a.n == 1u) { return; } }
}
EOF
cat >"$tmp/spec.wgsl" <<'EOF'
override wx: u32;
var<workgroup> buf: array<u32, 64>;
@group(0) @binding(0) var<storage, read_write> out: array<u32>;
@compute @workgroup_size(wx, 2)
fn main(@builtin(local_invocation_index) i: u32) { buf[i] = i; workgroupBarrier(); out[i] = buf[63u - i]; }
EOF
for f in big shared spec; do
  n=$((n+1))
  "$W" compile "$tmp/$f.wgsl" -o "$tmp/$f.spv" >"$tmp/out" 2>&1 || { bad "$f: compile failed: $(head -3 "$tmp/out")"; continue; }
  spirv-val --target-env vulkan1.1 "$tmp/$f.spv" >"$tmp/val" 2>&1 || bad "$f: spirv-val: $(head -3 "$tmp/val")"
done
spirv-dis "$tmp/shared.spv" | grep -q '%p_length = OpFunctionParameter %uint' || bad "no hidden length parameter"
[ "$(spirv-dis "$tmp/shared.spv" | grep -c 'OpDecorate %S Block')" = 1 ] || bad "Block decorated more than once"
spirv-dis "$tmp/spec.spv" | grep -q 'OpDecorate %wx SpecId 0' || bad "override without value is not a spec constant"
spirv-dis "$tmp/spec.spv" | grep -q 'BuiltIn WorkgroupSize' || bad "no WorkgroupSize spec constant"

# 3. options
k="$tmp/k.wgsl"
cat >"$k" <<'EOF'
struct P { n: u32, data: array<vec2f> }
@group(0) @binding(0) var<storage, read> src: P;
@group(0) @binding(2) var<storage, read_write> dst: array<f32>;
@group(1) @binding(0) var<uniform> scale: vec4f;
@id(7) override gain: f32 = 2.0;
override width: u32 = 8u;
@compute @workgroup_size(width, 2)
fn main(@builtin(global_invocation_id) id: vec3u) {
  dst[id.x] = src.data[id.x].x * gain * scale.x;
}
@compute @workgroup_size(1)
fn other() { dst[0] = 1.0; }
EOF
out=$("$W" compile --reflect "$k") || bad "--reflect failed"
for want in '"name":"main","stage":"compute","workgroupSize":[8,2,1],"workgroupSizeOverride":[1,-1,-1]' \
            '"name":"src","group":0,"binding":0,"type":"read-only-storage","minSize":8,"arrayStride":8' \
            '"name":"dst","group":0,"binding":2,"type":"storage","minSize":0,"arrayStride":4' \
            '"name":"scale","group":1,"binding":0,"type":"uniform","minSize":16,"arrayStride":0' \
            '"name":"gain","id":7,"explicitId":true,"type":"f32","default":2' \
            '"name":"width","id":0,"explicitId":false,"type":"u32","default":8'; do
  case "$out" in *"$want"*) ;; *) bad "--reflect lacks $want: $out" ;; esac
done
[ -e "$tmp/k.spv" ] && bad "--reflect without -o wrote a file"
out=$("$W" compile --reflect --override width=32 --override 7=0.5 "$k" -o "$tmp/o.spv") || bad "--override failed"
case "$out" in *'"workgroupSize":[32,2,1]'*) ;; *) bad "--override width=32 not in reflection: $out" ;; esac
spirv-dis "$tmp/o.spv" | grep -q 'LocalSize 32 2 1' || bad "--override width=32 not in LocalSize"
spirv-dis "$tmp/o.spv" | grep -q 'OpConstant %float 0.5' || bad "--override 7=0.5 not emitted"
"$W" compile --entry other "$k" -o "$tmp/e.spv" && spirv-val "$tmp/e.spv" || bad "--entry other: no valid module"
[ "$(spirv-dis "$tmp/e.spv" | grep -c OpEntryPoint)" = 1 ] && spirv-dis "$tmp/e.spv" | grep -q 'OpEntryPoint GLCompute %other "other"' ||
  bad "--entry other: module does not have exactly that entry point"
out=$("$W" compile --reflect --entry other "$k") || bad "--entry other failed"
case "$out" in *'"name":"main"'*) bad "--entry other still lists main" ;; esac
case "$out" in *'"name":"dst"'*) ;; *) bad "--entry other lost its binding dst" ;; esac
case "$out" in *'"name":"src"'*) bad "--entry other lists src which it does not use" ;; esac
"$W" compile --entry nosuch "$k" -o "$tmp/x.spv" 2>"$tmp/err"; [ $? -eq 2 ] || bad "--entry nosuch: exit not 2"
grep -q "no entry point 'nosuch'" "$tmp/err" || bad "--entry nosuch: message"
"$W" compile "$k" -o "$tmp/b.spv" && spirv-dis "$tmp/b.spv" | grep -q UMin || bad "bounds checks missing"
"$W" compile --no-bounds-checks "$k" -o "$tmp/c.spv" && ! spirv-dis "$tmp/c.spv" | grep -q UMin || bad "--no-bounds-checks still clamps"
cp "$k" "$tmp/def.wgsl"; (cd "$tmp" && "$W" compile def.wgsl >def-out.spv) && [ ! -e "$tmp/def.spv" ] &&
  cmp -s "$tmp/def-out.spv" "$tmp/b.spv" || bad "no -o: the module goes to standard output (no def.spv)"
"$W" compile - <"$k" >"$tmp/stdin.spv" && cmp -s "$tmp/stdin.spv" "$tmp/b.spv" || bad "'-' (standard input to standard output) differs from the file's module"
"$W" compile --help | grep -q -- '--reflect' || bad "--help"
"$W" compile >/dev/null 2>&1; [ $? -eq 2 ] || bad "no input: exit not 2"
"$W" compile "$tmp/none.wgsl" 2>/dev/null; [ $? -eq 2 ] || bad "missing file: exit not 2"
"$W" compile --target vulkan9 "$k" 2>/dev/null; [ $? -eq 2 ] || bad "bad target: exit not 2"
"$W" compile --override gain "$k" 2>/dev/null; [ $? -eq 2 ] || bad "override without value: exit not 2"
# @subgroup_size (enable subgroup_size_control) is valid WGSL but not compiled yet: a clear error
"$W" compile tests/wgsl/golden/16-subgroup-size-ok.wgsl -o "$tmp/sg.spv" 2>"$tmp/err"; [ $? -eq 1 ] || bad "@subgroup_size: exit not 1"
grep -q "'@subgroup_size' cannot be compiled to SPIR-V by wgc yet" "$tmp/err" || bad "@subgroup_size: message: $(head -2 "$tmp/err")"
[ -e "$tmp/sg.spv" ] && bad "@subgroup_size wrote a module"
printf 'fn f() { let x: i32 = 1u; }\n' >"$tmp/bad.wgsl"
"$W" compile "$tmp/bad.wgsl" -o "$tmp/bad.spv" 2>"$tmp/err"; [ $? -eq 1 ] || bad "invalid WGSL: exit not 1"
grep -q 'bad.wgsl:1:.*error' "$tmp/err" || bad "invalid WGSL: no diagnostic: $(cat "$tmp/err")"
[ -e "$tmp/bad.spv" ] && bad "invalid WGSL wrote a module"

echo "$fail failures"
[ $fail -eq 0 ]
