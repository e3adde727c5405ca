#!/bin/sh
# A lost device the CLI survives: `wgc run` / `wgc profile` on a kernel that never ends in
# practice (65535 x 65535 workgroups of a 60000-step loop) under a 1 s lost timeout exit 2 within
# a few seconds with one line naming the loss (before: stuck for ever releasing the device), and
# `--json` prints its one error document.  A kernel the driver takes minutes to compile (a large
# private array, on lavapipe) is given up after the lost timeout the same way.  The bound, 15 s
# for a 1 s timeout, leaves room for a loaded machine; `timeout 60` turns a hang into a failure.
W=$(cd "$(dirname "${BUILD:-build}/wgc")" && pwd)/wgc
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
cd "$T" || exit 1
export WGC_NO_PROGRESS=1 WGC_LOST_TIMEOUT_MS=1000
# a pipeline cache of its own: a big.wgsl another run compiled to its end must not be found
# (and no Mesa shader cache: lavapipe keeps compiled shaders under ~/.cache/mesa_shader_cache)
export WGC_CACHE_DIR="$T/cache" MESA_SHADER_CACHE_DISABLE=true
# An ASan build (make asan): the abandoned device's driver objects are leaked on purpose
# (doc/gpu.md), which LeakSanitizer would report at exit; the exit status and stderr are the test.
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
fail=0
bad() { echo "FAIL: $*"; fail=1; }
now() { date +%s.%N; }
elapsed() { awk "BEGIN { printf \"%.2f\", $(now) - $1 }"; }

cat > spin.wgsl <<'K'
@group(0) @binding(0) var<storage, read_write> x: array<u32>;
@compute @workgroup_size(1)
fn main(@builtin(workgroup_id) w: vec3<u32>) {
    var a: u32 = w.x + w.y;
    for (var i: u32 = 0u; i < 60000u; i++) { a = a * 1664525u + 1013904223u; }
    x[0] = a;
}
K
cat > big.wgsl <<'K'
@group(0) @binding(0) var<storage, read_write> x: array<f32>;
@compute @workgroup_size(1)
fn main(@builtin(global_invocation_id) g: vec3<u32>) {
    var a: array<f32, 2040>;
    for (var i: u32 = 0u; i < 2040u; i++) { a[(i * 7u) % 2040u] = f32(i) + x[i % 4u]; }
    x[0] = a[g.x % 2040u];
}
K

# runs "$@" under `timeout 60`; checks exit 2 within 15 s, one stderr line matching $want
lost() {
    want=$1; shift
    t0=$(now)
    timeout 60 "$@" >out.txt 2>err.txt
    rc=$?
    dt=$(elapsed "$t0")
    echo "$* -> exit $rc after ${dt} s: $(cat err.txt)"
    [ $rc -eq 2 ] || bad "exit $rc (want 2): $*"
    awk "BEGIN { exit !($dt < 15) }" || bad "took ${dt} s (bound 15 s): $*"
    [ "$(wc -l <err.txt)" -eq 1 ] || { bad "want one line on stderr: $*"; cat err.txt; }
    grep -q "$want" err.txt || bad "stderr lacks '$want': $*"
}

lost "device is lost: no submission finished for 1000 ms" \
    "$W" run spin.wgsl --dispatch 1,65535,65535 --bind 0=zeros:u32:4
lost "device is lost: no submission finished for 1000 ms" \
    "$W" profile spin.wgsl --dispatch 1,65535,65535 --bind 0=zeros:u32:4 --repeat 2 --warmup 0
# --json: the one document on stdout (and the same line on stderr)
t0=$(now)
timeout 60 "$W" run spin.wgsl --dispatch 1,65535,65535 --bind 0=zeros:u32:4 --json >out.txt 2>err.txt
rc=$?
dt=$(elapsed "$t0")
[ $rc -eq 2 ] || bad "--json: exit $rc (want 2)"
awk "BEGIN { exit !($dt < 15) }" || bad "--json: took ${dt} s"
[ "$(wc -l <err.txt)" -eq 1 ] || bad "--json: want the one line on stderr too: $(cat err.txt)"
python3 -c '
import json, sys
d = json.load(open("out.txt"))
assert d["ok"] is False and d["error"] == "WG_ERR_DEVICE_LOST", d
assert "no submission finished" in d["message"], d
' || { bad "--json document"; cat out.txt; }

# a kernel the driver takes minutes with (lavapipe: an 8 KiB private array, the most WGSL allows,
# indexed at run time: about 110 s of CPU)
if "$W" info 2>/dev/null | grep -Eq '^ *type +cpu'; then
    # lavapipe spends its minutes compiling or running it, depending on the machine: either way
    # the CLI gives up after the timeout (test_lost.c checks the pipeline-creation bound itself)
    lost "the driver did not create it within 1000 ms\|no submission finished for 1000 ms" \
        "$W" run big.wgsl --dispatch 1 --bind 0=zeros:f32:4
else
    echo "pipeline creation bound: checked on CPU adapters (a GPU compiles big.wgsl in time)"
fi

[ $fail -eq 0 ] && echo "test_lost.sh: ok"
exit $fail
