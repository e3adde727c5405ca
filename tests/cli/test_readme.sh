#!/bin/sh
# test_readme.sh - every command and snippet of README.md runs as written, so a newcomer copying
# them gets no error.  README.md's fenced blocks, each of which must be one of these (a new kind
# of block fails the test until it is handled here):
#   the setup block (```sh starting `sh scripts/deps.sh`): each `sh scripts/deps.sh [demo]` runs for
#     real from the repository root (all present: exit 0); each `make TARGET` runs as `make -n`
#     (the target exists and its recipe expands: running `make check` inside `make check` would
#     recurse; tests/cli/test_demo.sh and tests/llm/test_generate.sh run what `make demo` runs);
#   the command block (```sh starting `build/wgc info`): every line runs, from a scratch folder
#     that looks like the repository root (build/, examples/, python/ linked), including the
#     profile example; then y.npy = 2 x.npy and scale.spv is SPIR-V;
#   the Python snippet (```python): runs as written, then its profile result is checked (ok, a
#     median, y = 2 x).
# The `make ...` commands of the Building table run as `make -n` too.
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${BUILD:-build}
case $BUILD in /*) B=$BUILD ;; *) B=$ROOT/$BUILD ;; esac
fail() { echo "FAIL: $*"; exit 1; }
[ -x "$B/wgc" ] || fail "no $B/wgc (make first)"
tmp=$(mktemp -d) || fail "mktemp"
trap 'rm -rf "$tmp"' EXIT
ln -s "$B" "$tmp/build" && ln -s "$ROOT/examples" "$tmp/examples" && ln -s "$ROOT/python" "$tmp/python" || fail "links"
# every fenced block into block.N.<lang>, comments (# ...) and blank lines dropped from sh blocks
awk -v d="$tmp" '
  /^```/ { if (inb) { inb = 0; next } lang = substr($0, 4); n++; inb = 1; f = d "/block." n "." (lang == "" ? "txt" : lang); printf "" > f; next }
  inb { print > f }' "$ROOT/README.md"
nblocks=0; setup=; cmds=; snippet=
for f in "$tmp"/block.*; do
  [ -e "$f" ] || continue
  nblocks=$((nblocks + 1))
  case "$f" in
    *.sh)
      sed -i 's/[[:space:]]*#.*$//; /^[[:space:]]*$/d' "$f"
      case "$(head -n 1 "$f")" in
        "sh scripts/deps.sh"*) setup=$f ;;
        "build/wgc info"*) cmds=$f ;;
        *) fail "README block $(basename "$f") is not handled by this test: $(head -n 1 "$f")" ;;
      esac ;;
    *.python) snippet=$f ;;
    *) fail "README block $(basename "$f") is not handled by this test: $(head -n 1 "$f")" ;;
  esac
done
[ -n "$setup" ] || fail "no setup block (sh scripts/deps.sh ...) in the README"
[ -n "$cmds" ] || fail "no command block (build/wgc info ...) in the README"
[ -n "$snippet" ] || fail "no Python snippet in the README"
n=$(wc -l < "$cmds")
[ "$n" -ge 5 ] || fail "found $n commands in the README's block (expected at least 5)"

# the setup block: deps.sh for real, make targets as make -n
steps=0
while IFS= read -r line; do
  echo "$line" | tr '&' '\n' | sed 's/^[[:space:]]*//; s/[[:space:]]*$//; /^$/d' > "$tmp/steps"
  while IFS= read -r s; do
    steps=$((steps + 1))
    case "$s" in
      "sh scripts/deps.sh"*)
        echo "README setup: $s"
        (cd "$ROOT" && $s) > "$tmp/setup.out" 2>&1 || { tail -5 "$tmp/setup.out"; fail "README setup step exited non-zero: $s"; } ;;
      make|make\ *)
        echo "README setup: $s (as make -n)"
        (cd "$ROOT" && make -n BUILD="$BUILD" ${s#make}) > "$tmp/setup.out" 2>&1 ||
          { tail -5 "$tmp/setup.out"; fail "README setup step: make -n${s#make} failed"; } ;;
      *) fail "README setup step not handled by this test: $s" ;;
    esac
  done < "$tmp/steps"
done < "$setup"
# the Building table's make commands
targets=$(grep -o '^| `make[^`]*`' "$ROOT/README.md" | sed 's/^| `make//; s/`$//; s/ PREFIX=[^ ]*//')
nt=0
for tg in "" $targets; do
  nt=$((nt + 1))
  (cd "$ROOT" && make -n BUILD="$BUILD" $tg) > "$tmp/make.out" 2>&1 || { tail -5 "$tmp/make.out"; fail "README: make -n $tg failed"; }
done
[ "$nt" -ge 8 ] || fail "found $nt make commands in the README's Building table (expected at least 8)"

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
cp "$cmds" "$tmp/cmds.sh" && cp "$snippet" "$tmp/snippet.py" || fail "copy"
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
grep -q 'profile' cmds.sh || fail "the README's command block has no profile example"
cat snippet.py - > run_snippet.py <<'PY'
assert ok, message
assert r["ok"] and r["median_ns"] > 0, r
out = np.frombuffer(bytes(r["outputs"][1]), np.float32) if not isinstance(r["outputs"][1], np.ndarray) else r["outputs"][1]
assert np.array_equal(out.reshape(-1), 2 * x), "the snippet's y != 2 x"
print("python snippet: ok, median", r["median_ns"], "ns")
PY
LD_PRELOAD=$PRELOAD ASAN_OPTIONS=detect_leaks=0 WGC_LIB=$B/libwgc.so PYTHONPATH=python "$py" run_snippet.py || fail "the README's Python snippet failed"
echo "ok: $nblocks README blocks: $steps setup steps, $nt Building-table make commands (make -n), $n commands and the Python snippet ran as written"
