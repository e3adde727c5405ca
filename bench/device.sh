#!/bin/sh
# device.sh - the H200 run of `wgc bench runtime`, in one call of the device tool: prepares the
# Vulkan loader (.gl) and Dawn (.dawn) when carried, builds with the project's Makefile, runs
# `wgc info` and `wgc bench runtime --json` with the PyTorch and Dawn baselines (and `wgc bench
# compile`), writes every log to $OUT, and prints a short table last.
#
#   sh bench/device.sh            (from the repository root; on the device, as the lead's command)
#
# Env: OUT (logs; default build/device-out), JOBS (make -j, default 16), BUILD (default build),
#      WGC_BENCH_SIZE (auto|small|medium|full, default auto), WGC_BENCH_TIMEOUT (s, default 480),
#      WGC_DAWN (default .dawn when it holds dawn-bench.mjs), WGC_DEVICE_COMPILE=0 skips the
#      compile benchmark.  Exit status: 0 when the runtime benchmark ran, 1 otherwise.
# The device has no spirv-as: carry build/gen (built here by `make`); its embedded headers are
# reused.  Without either, the build stops with that advice.  Nothing here asks for input.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT" || exit 1
BUILD=${BUILD:-build}
OUT=${OUT:-$BUILD/device-out}
JOBS=${JOBS:-16}
SIZE=${WGC_BENCH_SIZE:-auto}
TMO=${WGC_BENCH_TIMEOUT:-480}
mkdir -p "$OUT" || exit 1
LOG=$OUT/device.log
: >"$LOG"
: >"$OUT/build.log"
say() { echo "device.sh: $*" | tee -a "$LOG" >&2; }

# 1. Vulkan loader: the carried Debian packages when the system has none.
LDCONFIG=$(command -v ldconfig || echo /sbin/ldconfig)
has_vulkan() {
  for d in /usr/lib/x86_64-linux-gnu /lib/x86_64-linux-gnu /usr/lib64 /usr/lib /usr/local/lib; do
    [ -e "$d/libvulkan.so.1" ] && return 0
  done
  [ -x "$LDCONFIG" ] && "$LDCONFIG" -p 2>/dev/null | grep -q 'libvulkan\.so\.1'
}
if ! has_vulkan; then
  if ls .gl/*.deb >/dev/null 2>&1; then
    for f in .gl/*.deb; do dpkg -x "$f" / || say "dpkg -x $f failed"; done
    "$LDCONFIG" || say "ldconfig failed"
  else
    say "no libvulkan.so.1 and no .gl/*.deb: wgc will report the missing loader"
  fi
fi
nv=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
if [ -z "${VK_DRIVER_FILES:-}" ] && [ -f "$nv" ]; then export VK_DRIVER_FILES=$nv; fi
say "VK_DRIVER_FILES=${VK_DRIVER_FILES:-(unset)}"

# 2. Dawn: unpack node next to dawn-bench.mjs and webgpu/.
if [ -z "${WGC_DAWN:-}" ] && [ -f .dawn/dawn-bench.mjs ]; then export WGC_DAWN=$ROOT/.dawn; fi
if [ -n "${WGC_DAWN:-}" ]; then
  # node: $WGC_DAWN/node, else unpacked from node.xz into $BUILD (never into the carried folder,
  # which must stay small), else the one on PATH.
  if [ -x "$WGC_DAWN/node" ]; then
    PATH=$WGC_DAWN:$PATH
  elif [ -f "$WGC_DAWN/node.xz" ]; then
    case $BUILD in /*) nd=$BUILD/dawn-node ;; *) nd=$ROOT/$BUILD/dawn-node ;; esac
    mkdir -p "$nd"
    if xz -dc "$WGC_DAWN/node.xz" >"$nd/node" && chmod +x "$nd/node"; then
      PATH=$nd:$PATH
    else
      say "cannot unpack $WGC_DAWN/node.xz"
    fi
  fi
  export PATH
  say "WGC_DAWN=$WGC_DAWN, node: $(command -v node || echo none)"
else
  say "no Dawn (.dawn not carried, WGC_DAWN unset): the dawn column stays empty"
fi
[ -z "${WEBGPU_PKG:-}" ] && [ -n "${WGC_DAWN:-}" ] && [ -d "$WGC_DAWN/webgpu" ] && export WEBGPU_PKG=$WGC_DAWN/webgpu

# 3. Build with the project's Makefile.
command -v make >/dev/null 2>&1 || { say "no make on this machine"; exit 1; }
if ! command -v spirv-as >/dev/null 2>&1; then
  # The .spv files are make intermediates (deleted after embedding); with the embedded headers
  # newer than their sources and than the embed tool, make never needs them again.
  if ls "$BUILD"/gen/*.spv.h >/dev/null 2>&1; then
    say "no spirv-as here: reusing the carried $BUILD/gen/*.h"
    make BUILD="$BUILD" "$BUILD/embed" >>"$OUT/build.log" 2>&1 || say "cannot build $BUILD/embed"
    touch "$BUILD"/gen/*
  else
    say "no spirv-as here and no $BUILD/gen/*.spv.h: run make on the build machine and carry $BUILD/gen"
  fi
fi
if ! make -j"$JOBS" BUILD="$BUILD" all >>"$OUT/build.log" 2>&1; then
  say "build failed; last lines of $OUT/build.log:"
  tail -n 30 "$OUT/build.log" >&2
  exit 1
fi
say "built $BUILD/wgc"

# 4. Adapter facts.
"$BUILD"/wgc info >"$OUT/info.txt" 2>&1 || say "wgc info: exit $?"
"$BUILD"/wgc info --json >"$OUT/info.json" 2>>"$LOG" || true
head -n 12 "$OUT/info.txt" >&2

# 5. The runtime benchmark with its baselines (JSON), stderr as progress log.
run_to() { # run_to SECONDS CMD...: timeout when available
  t=$1; shift
  if command -v timeout >/dev/null 2>&1; then timeout "$t" "$@"; else "$@"; fi
}
status=0
run_to "$TMO" "$BUILD"/wgc bench runtime --json --size "$SIZE" -v >"$OUT/bench-runtime.json" 2>"$OUT/bench-runtime.log"
rc=$?
[ $rc -eq 0 ] || { say "wgc bench runtime: exit $rc (see $OUT/bench-runtime.log)"; tail -n 15 "$OUT/bench-runtime.log" >&2; }
[ -s "$OUT/bench-runtime.json" ] || status=1

# 6. The compile benchmark (Tint from $WEBGPU_PKG when present); failures do not count.
if [ "${WGC_DEVICE_COMPILE:-1}" != 0 ]; then
  run_to 300 "$BUILD"/wgc bench compile --json >"$OUT/bench-compile.json" 2>"$OUT/bench-compile.log" ||
    say "wgc bench compile: exit $? (see $OUT/bench-compile.log)"
fi

# 7. Short table last.
table() {
  python3 - "$1" <<'PY' 2>/dev/null || cat "$1"
import json, sys
d = json.load(open(sys.argv[1]))
print("== wgc bench %s: %s" % (d["bench"], d["info"].get("adapter", d["info"].get("kernels", ""))))
for b in d["baselines"]:
    print("   %s: %s%s" % (b["name"], "" if b["ran"] else "none: ", b.get("info") or b.get("reason")))
names = [b["name"] for b in d["baselines"]]
print("%-48s %10s" % ("benchmark", "wgc") + "".join(" %9s %6s" % (n, "ratio") for n in names) + "  target")
def f(v):
    return "-" if v is None else ("%.0f" % v if abs(v) >= 1000 else "%.3g" % v)
for r in d["rows"]:
    line = "%-48s %10s" % (r["name"] + " [" + r["unit"] + "]", f(r["wgc"]))
    for n in names:
        b = r["baselines"].get(n, {})
        line += " %9s %6s" % (f(b.get("value")), "-" if b.get("ratio") is None else "x%.2f" % b["ratio"])
    if r["target"] is not None:
        line += "  %s%s %s" % (">=" if r["better"] == "higher" else "<=", f(r["target"]),
                               "met" if r.get("targetMet") else "MISSED" if r.get("targetMet") is False else "not judged")
    print(line)
for k in ("errors", "WRONG"):
    if k in d["info"]:
        print("!! %s: %s" % (k, d["info"][k]))
PY
}
[ -s "$OUT/bench-compile.json" ] && table "$OUT/bench-compile.json"
[ -s "$OUT/bench-runtime.json" ] && table "$OUT/bench-runtime.json"
say "logs in $OUT"
exit $status
