#!/bin/sh
# The CLI as users of tint, naga, spirv-val and vulkaninfo expect it: `wgc --version` / `-V`,
# `wgc help CMD`, `wgc compile` without -o writing the module to standard output (and refusing a
# terminal) instead of a file it was not told to write, `--target-env` with the spirv-tools names
# (and `--opt=value`), `wgc info --adapter SEL` (text and --json), and the `--json` error document
# of run/profile on errors before the kernel runs.
W=$(cd "$(dirname "${BUILD:-build}/wgc")" && pwd)/wgc
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
cd "$T" || exit 1
export WGC_NO_PROGRESS=1
fail=0
bad() { echo "FAIL: $*"; fail=1; }

# --version
v=$("$W" version) || bad "wgc version failed"
[ "$("$W" --version)" = "$v" ] || bad "--version: '$("$W" --version)', want '$v'"
[ "$("$W" -V)" = "$v" ] || bad "-V"
"$W" --version extra >/dev/null 2>&1; [ $? -eq 2 ] || bad "--version extra: exit not 2"
# help CMD
"$W" help run | head -n 1 | grep -q '^usage: wgc run' || bad "wgc help run"
"$W" help nosuch >/dev/null 2>err.txt; [ $? -eq 2 ] && grep -q "unknown command 'nosuch'" err.txt || bad "help nosuch"
"$W" help | grep -q '^commands:' || bad "wgc help lists the commands"

# compile: no -o -> standard output, never a file of its own choosing
printf '@group(0) @binding(0) var<storage, read_write> v: array<u32>;\n@compute @workgroup_size(1) fn main() { v[0] = 1u; }\n' >k.wgsl
"$W" compile k.wgsl -o ref.spv || bad "compile -o"
"$W" compile k.wgsl >out.spv || bad "compile to a pipe/file"
cmp -s out.spv ref.spv || bad "no -o: standard output differs from -o's module"
[ -e k.spv ] && bad "no -o wrote k.spv"
python3 - "$W" <<'PY' || bad "compile to a terminal is not refused"
import os, pty, sys
pid, fd = pty.fork()
if pid == 0:
    os.execv(sys.argv[1], ["wgc", "compile", "k.wgsl"])
out = b""
while True:
    try:
        d = os.read(fd, 4096)
    except OSError:
        break
    if not d:
        break
    out += d
_, st = os.waitpid(pid, 0)
ok = os.WEXITSTATUS(st) == 2 and b"standard output is a terminal" in out and b"\x03\x02\x23\x07" not in out
sys.exit(0 if ok else 1)
PY
[ -e k.spv ] && bad "the terminal case wrote k.spv"
# --target-env, spirv-tools' names; SPIR-V version word
ver() { od -An -tx4 -j4 -N4 "$1" | tr -d ' '; }
for e in vulkan1.1 vulkan1.2 spv1.3 universal1.3; do
  "$W" compile k.wgsl --target-env "$e" -o t.spv && [ "$(ver t.spv)" = 00010300 ] || bad "--target-env $e: not SPIR-V 1.3"
done
for e in vulkan1.3 vulkan1.4 spv1.6 universal1.6; do
  "$W" compile k.wgsl --target-env="$e" -o t.spv && [ "$(ver t.spv)" = 00010600 ] || bad "--target-env=$e: not SPIR-V 1.6"
done
"$W" compile k.wgsl --target=vulkan1.3 --entry=main -o t2.spv && [ "$(ver t2.spv)" = 00010600 ] || bad "--target=vulkan1.3 --entry=main"
"$W" compile k.wgsl --target-env vulkan1.0 -o t.spv 2>err.txt; [ $? -eq 2 ] && grep -q "unknown target environment" err.txt ||
  bad "--target-env vulkan1.0: $(cat err.txt)"
if command -v spirv-val >/dev/null; then
  spirv-val --target-env vulkan1.2 out.spv || bad "the default module is not valid for vulkan1.2"
fi

# info --adapter
"$W" info --adapter 0 >i0.txt || bad "info --adapter 0"
[ "$(grep -c '^adapter ' i0.txt)" -eq 1 ] && head -n 1 i0.txt | grep -q '^adapter 0' || bad "info --adapter 0: $(head -n 1 i0.txt)"
name=$("$W" info --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["adapters"][0]["name"])')
"$W" info --adapter="$(echo "$name" | cut -c1-4)" --json >i.json || bad "info --adapter=NAME --json"
python3 -c '
import json, sys
d = json.load(open("i.json"))
assert len(d["adapters"]) == 1 and d["adapters"][0]["name"] == sys.argv[1], d
' "$name" || bad "info --adapter --json: $(head -c 200 i.json)"
n=$("$W" info --json | python3 -c 'import json,sys; print(len(json.load(sys.stdin)["adapters"]))')
"$W" info --adapter "$n" >o.txt 2>err.txt; [ $? -eq 2 ] && [ ! -s o.txt ] && grep -q "adapter index $n" err.txt ||
  bad "info --adapter $n (none): $(cat err.txt)"
"$W" info --adapter "$n" --json >o.json 2>/dev/null; [ $? -eq 2 ] || bad "info --adapter $n --json: exit not 2"
python3 -c 'import json; assert "error" in json.load(open("o.json"))' || bad "info --adapter $n --json: no error document"

# run --json: one document on every exit, the same shape before the kernel runs (WGC_ERROR)
"$W" run k.wgsl --dispatch 1 --bind 0=missing.npy --json >o.json 2>/dev/null; rc=$?
[ $rc -eq 2 ] || bad "run --bind missing.npy --json: exit $rc"
python3 -c '
import json
d = json.load(open("o.json"))
assert d["ok"] is False and d["error"] == "WGC_ERROR" and "missing.npy" in d["message"] and d["diagnostics"] == "", d
' || bad "run --json error document: $(cat o.json)"

# no Vulkan: one line, the install hint once
WGC_VULKAN_LIB=/nonexistent/libvulkan.so.1 "$W" info >/dev/null 2>err.txt; rc=$?
[ $rc -eq 1 ] && [ "$(wc -l <err.txt)" -eq 1 ] && [ "$(grep -o 'apt-get install' err.txt | wc -l)" -eq 1 ] ||
  bad "info without a loader: exit $rc, stderr: $(cat err.txt)"
VK_DRIVER_FILES=/nonexistent VK_ICD_FILENAMES=/nonexistent "$W" info >/dev/null 2>err.txt; rc=$?
[ $rc -eq 1 ] && [ "$(wc -l <err.txt)" -eq 1 ] && [ "$(grep -o 'apt-get install' err.txt | wc -l)" -eq 1 ] ||
  bad "info without a driver: exit $rc, stderr: $(cat err.txt)"

# messages name the limit they hit
printf '@group(0) @binding(0) var<storage, read_write> v: array<u32>;\n@compute @workgroup_size(2048) fn main() { v[0] = 1u; }\n' >w1.wgsl
printf '@group(0) @binding(0) var<storage, read_write> v: array<u32>;\n@compute @workgroup_size(64, 32) fn main() { v[0] = 1u; }\n' >w2.wgsl
"$W" run w1.wgsl --dispatch 1 --bind 0=zeros:u32:4 2>err.txt; grep -q "workgroup size 2048x1x1: maxComputeWorkgroupSize x/y/z is" err.txt ||
  bad "workgroup size message: $(cat err.txt)"
"$W" run w2.wgsl --dispatch 1 --bind 0=zeros:u32:4 2>err.txt; grep -q "2048 invocations, maxComputeInvocationsPerWorkgroup is" err.txt ||
  bad "invocations message: $(cat err.txt)"

[ $fail -eq 0 ] && echo "test_conventions.sh: ok"
exit $fail
