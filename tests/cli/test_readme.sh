#!/bin/sh
# test_readme.sh - the README's command block (the one starting `build/wgc info`) and its Python
# snippet run as written, from a scratch folder that looks like the repository root (build/,
# examples/ and python/ linked), so a newcomer copying them gets no error; then the outputs are
# checked: y.npy = 2 x.npy, scale.spv is SPIR-V, and the snippet's profile returned ok.
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${BUILD:-build}
case $BUILD in /*) B=$BUILD ;; *) B=$ROOT/$BUILD ;; esac
fail() { echo "FAIL: $*"; exit 1; }
[ -x "$B/wgc" ] || fail "no $B/wgc (make first)"
tmp=$(mktemp -d) || fail "mktemp"
trap 'rm -rf "$tmp"' EXIT
ln -s "$B" "$tmp/build" && ln -s "$ROOT/examples" "$tmp/examples" && ln -s "$ROOT/python" "$tmp/python" || fail "links"
# the blocks: the ```sh fence whose first line is `build/wgc info`, and the ```python fence
awk '/^```sh$/ { getline l; if (l ~ /^build\/wgc info/) { inb = 1; print l; next } } inb && /^```$/ { exit } inb' \
    "$ROOT/README.md" | grep -v '^[[:space:]]*#' > "$tmp/cmds.sh"
awk '/^```python$/ { inb = 1; next } inb && /^```$/ { exit } inb' "$ROOT/README.md" > "$tmp/snippet.py"
n=$(wc -l < "$tmp/cmds.sh")
[ "$n" -ge 5 ] || fail "found $n commands in the README's block (expected at least 5)"
[ -s "$tmp/snippet.py" ] || fail "no Python snippet in the README"
# Debian's python3 (python3-numpy from scripts/deps.sh), as tests/python/test_python.sh; a
# sanitizer build's libwgc.so needs the sanitizer runtimes loaded into python first
py=${WGC_PYTHON:-python3}
[ -z "${WGC_PYTHON:-}" ] && [ -x /usr/bin/python3 ] && py=/usr/bin/python3
if nm -D "$B/libwgc.so" 2>/dev/null | grep -q ' U __asan_'; then
  cc=${CC:-cc}
  PRELOAD="$($cc -print-file-name=libasan.so) $($cc -print-file-name=libubsan.so)"
else
  PRELOAD=
fi
cd "$tmp" || fail "cd"
i=0
while IFS= read -r line; do
  i=$((i + 1))
  echo "README command $i: $line"
  sh -c "$line" > "out$i.txt" 2>&1 || { tail -5 "out$i.txt"; fail "README command $i exited non-zero: $line"; }
done < cmds.sh
"$py" - <<'PY' || fail "the outputs of the README's commands are wrong"
import numpy as np
x, y = np.load("x.npy"), np.load("y.npy")
assert x.shape == (1024,) and y.shape == (1024,), (x.shape, y.shape)
assert np.array_equal(y, 2 * x), "y != 2 x"
assert open("scale.spv", "rb").read(4) == b"\x03\x02\x23\x07", "scale.spv is not SPIR-V"
print("y = 2 x over", x.size, "elements; scale.spv is SPIR-V")
PY
cat snippet.py - > run_snippet.py <<'PY'
assert ok, message
assert r["ok"] and r["median_ns"] > 0, r
out = np.frombuffer(bytes(r["outputs"][1]), np.float32) if not isinstance(r["outputs"][1], np.ndarray) else r["outputs"][1]
assert np.array_equal(out.reshape(-1), 2 * x), "the snippet's y != 2 x"
print("python snippet: ok, median", r["median_ns"], "ns")
PY
LD_PRELOAD=$PRELOAD ASAN_OPTIONS=detect_leaks=0 WGC_LIB=$B/libwgc.so PYTHONPATH=python "$py" run_snippet.py || fail "the README's Python snippet failed"
echo "ok: $n README commands and the Python snippet ran as written"
