#!/bin/sh
# test_bench.sh - smoke test of `wgc bench runtime` and `wgc bench compile` on lavapipe with tiny
# sizes: both run, exit 0, print every row with a figure, say "baseline ...: none (reason)" when
# a baseline cannot run, give valid JSON with --json, and carry the figures of fake PyTorch and
# Dawn baselines (scripts that print known numbers) into the baseline columns with the right
# ratios.  No timing is asserted.
W=${BUILD:-build}/wgc
fail=0
t=$(mktemp -d /tmp/wgc-test-bench-XXXXXX)
trap 'rm -rf "$t"' EXIT
bad() { echo "FAIL: $*"; fail=1; }

# an unknown suite lists every suite
$W bench nope >"$t/nope.txt" 2>"$t/nope.err"; rc=$?
[ $rc -eq 2 ] || bad "bench nope exit $rc"
grep -q 'runtime, compile, ops, nn, llm, train or generate' "$t/nope.err" || bad "bench nope: $(cat "$t/nope.err")"

# runtime, text
$W bench runtime --size small --baseline none >"$t/rt.txt" 2>"$t/rt.err"; rc=$?
[ $rc -eq 0 ] || { bad "bench runtime exit $rc"; cat "$t/rt.err"; }
for row in "vec4 add (GPU time)" "copy_buffer_to_buffer (GPU time)" "vkCmdCopyBuffer copy (GPU time)" \
           "WGSL vec4 copy kernel" \
           "dependent tiny op, end to end" "dependent tiny op, CPU record" "dependent tiny op, GPU time" \
           "independent tiny op, GPU time" \
           "submit+wait, tiny dispatch (mean)" "submit+wait, tiny dispatch (min)" "upload (write_buffer)" \
           "readback (wg_buffer_read)" "readback (map-read buffer)" "pipeline creation, cold" \
           "pipeline creation, warm (disk cache)" "pipeline creation, warm (in memory)"; do
  line=$(grep -F "$row" "$t/rt.txt" | head -n 1)
  [ -n "$line" ] || { bad "runtime row missing: $row"; continue; }
  # the figure after the name must be a number, not "-"
  echo "$line" | sed "s/^.\{40\}//" | awk '{ exit !($1 ~ /^[0-9.]+$/) }' || bad "runtime row without a figure: $line"
done
grep -q '^  baseline torch: none (' "$t/rt.txt" || bad "runtime: no 'baseline torch: none (reason)' line"
grep -q '^  baseline dawn: none (' "$t/rt.txt" || bad "runtime: no 'baseline dawn: none (reason)' line"
grep -q 'target' "$t/rt.txt" || bad "runtime: no target column"
# on a CPU adapter (lavapipe) the GPU targets are shown but not judged: no "MISSED"
if grep -q '^  adapter .*(cpu,' "$t/rt.txt"; then
  grep -q 'MISSED' "$t/rt.txt" && bad "runtime on a CPU adapter says MISSED: $(grep MISSED "$t/rt.txt" | head -n 1)"
  grep -q 'target applies to GPUs' "$t/rt.txt" || bad "runtime on a CPU adapter: no 'target applies to GPUs'"
  # with the default baselines, each skipped one says why
  $W bench runtime --size small --runs 1 >"$t/rt3.txt" 2>&1
  grep -q "^  baseline torch: none (adapter '.*' is a CPU" "$t/rt3.txt" || bad "runtime: torch skipped without its reason: $(grep 'baseline torch' "$t/rt3.txt")"
  grep -q '^  baseline dawn: none (.\{8,\})' "$t/rt3.txt" || bad "runtime: dawn skipped without its reason: $(grep 'baseline dawn' "$t/rt3.txt")"
fi

# runtime, JSON, with fake baselines
cat >"$t/fake_torch" <<'PY'
#!/bin/sh
echo 'some log line'
echo '{"torch": "0.fake", "device": "Fake GPU", "n": 1, "add_GBps": 2.0, "copy_GBps": 3.0, "tiny_eager_us": 1000.0, "tiny_graph_us": 500.0, "sync_us_mean": 4000.0, "sync_us_min": 3000.0, "upload_GBps": 0.5, "readback_GBps": 0.25}'
PY
chmod +x "$t/fake_torch"
mkdir -p "$t/dawn/webgpu"
cat >"$t/dawn/dawn-bench.mjs" <<'JS'
console.log(JSON.stringify({ adapter: { desc: "Fake Dawn adapter" } }));
if (process.env.ONLY === "add") {
  console.log(JSON.stringify({ add: { n: 67108864, GBps: 0.125, ms: 1 } }));
  console.log(JSON.stringify({ copy: { bytes: 268435456, GBps: 0.0625 } }));
  process.exit(0);
}
console.log(JSON.stringify({ dispatch: { passPerDispatch: true, count: 2000, usPerDispatch: 7000 } }));
console.log(JSON.stringify({ dispatch: { passPerDispatch: false, count: 2000, usPerDispatch: 6000 } }));
console.log(JSON.stringify({ roundtrip: { count: 200, usPerSubmitWait: 9000 } }));
JS
WGC_PYTHON="$t/fake_torch" WGC_DAWN="$t/dawn" $W bench runtime --size small --json --baseline torch,dawn \
  >"$t/rt.json" 2>"$t/rt.err"; rc=$?
[ $rc -eq 0 ] || { bad "bench runtime --json exit $rc"; cat "$t/rt.err"; }
python3 - "$t/rt.json" <<'PY' || fail=1
import json, sys
d = json.load(open(sys.argv[1]))
rows = {r["key"]: r for r in d["rows"]}
bl = {b["name"]: b for b in d["baselines"]}
errs = []
def want(c, msg):
    if not c: errs.append(msg)
want(bl["torch"]["ran"] and "Fake GPU" in bl["torch"]["info"], "torch baseline not parsed: %s" % bl["torch"])
want(bl["dawn"]["ran"] and "Fake Dawn adapter" in bl["dawn"]["info"], "dawn baseline not parsed: %s" % bl["dawn"])
for key in ("add_GBps", "copy_GBps", "copy_transfer_GBps", "dep_e2e_us", "dep_record_us", "submit_wait_us", "upload_GBps",
            "readback_GBps", "pipeline_cold_ms", "pipeline_warm_disk_ms", "pipeline_warm_mem_ms"):
    want(key in rows and isinstance(rows[key]["wgc"], (int, float)) and rows[key]["wgc"] > 0, "no figure: " + key)
def close(a, b): return a is not None and abs(a - b) <= 1e-3 * abs(b)
t = rows["add_GBps"]["baselines"]["torch"]
want(t["value"] == 2.0 and close(t["ratio"], rows["add_GBps"]["wgc"] / 2.0), "add ratio (higher is better): %s" % t)
t = rows["dep_e2e_us"]["baselines"]["torch"]
want(t["value"] == 1000.0 and close(t["ratio"], 1000.0 / rows["dep_e2e_us"]["wgc"]), "eager ratio (lower is better): %s" % t)
want(rows["dep_gpu_us"]["baselines"]["torch"]["value"] == 500.0, "graph figure")
want(rows["submit_wait_min_us"]["baselines"]["torch"]["value"] == 3000.0, "sync min figure")
want(rows["dep_e2e_us"]["baselines"]["dawn"]["value"] == 6000.0, "dawn one-pass dispatch figure")
want(rows["submit_wait_us"]["baselines"]["dawn"]["value"] == 9000.0, "dawn round trip figure")
t = rows["add_GBps"]["baselines"]["dawn"]
want(t["value"] == 0.125 and "67108864" in t["what"], "dawn add figure: %s" % t)
want(rows["copy_GBps"]["baselines"]["dawn"]["value"] == 0.0625, "dawn copy figure")
want(rows["add_GBps"]["target"] == 4200 and rows["dep_e2e_us"]["target"] == 2.5 and
     rows["submit_wait_us"]["target"] == 25 and rows["upload_GBps"]["target"] == 40 and
     rows["pipeline_warm_disk_ms"]["target"] == 1, "targets")
want("WRONG" not in d["info"] and "errors" not in d["info"], "errors: %s" % d["info"])
for e in errs: print("FAIL: " + e)
sys.exit(1 if errs else 0)
PY

# a baseline that fails says why
printf '#!/bin/sh\necho "{\\"error\\": \\"no CUDA here\\"}"; exit 1\n' >"$t/no_torch"; chmod +x "$t/no_torch"
WGC_PYTHON="$t/no_torch" $W bench runtime --size small --baseline torch >"$t/rt2.txt" 2>&1
grep -q 'baseline torch: none (no CUDA here)' "$t/rt2.txt" || bad "failed baseline reason not shown"

# compile, text and JSON (Tint only when the npm package is installed: not required here)
$W bench compile --size small --baseline none >"$t/c.txt" 2>"$t/c.err"; rc=$?
[ $rc -eq 0 ] || { bad "bench compile exit $rc"; cat "$t/c.err"; }
for row in "all repo kernels: check" "all repo kernels: check + SPIR-V" "typical 300-line kernel: check" \
           "generated large shader: check" "repo kernels, per 300 lines: check"; do
  grep -qF "$row" "$t/c.txt" || bad "compile row missing: $row"
done
grep -q 'baseline tint: none (' "$t/c.txt" || bad "compile: no 'baseline tint: none (reason)' line"
grep -q 'generated .* (valid)' "$t/c.txt" || bad "compile: generated shader not valid"
$W bench compile --size small --runs 1 --json --baseline none >"$t/c.json" 2>&1 || bad "bench compile --json failed"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert len(d["rows"]) >= 6 and all(r["wgc"] for r in d["rows"]), d' \
  "$t/c.json" || bad "compile JSON"

# compile against Tint when the npm package is installed (tests/oracle/install.sh; the oracle
# tests install it): the tint column must carry figures and the verdicts must be counted
pkg=""
for d in "${BUILD:-build}/npm/node_modules/webgpu" build/npm/node_modules/webgpu; do
  [ -f "$d/index.js" ] && { pkg=$d; break; }
done
if [ -n "$pkg" ] && command -v node >/dev/null 2>&1; then
  WEBGPU_PKG=$pkg $W bench compile --size small --runs 1 --json --baseline tint >"$t/ct.json" 2>"$t/ct.err" ||
    { bad "bench compile with Tint failed"; cat "$t/ct.err"; }
  python3 - "$t/ct.json" <<'PY' || fail=1
import json, sys
d = json.load(open(sys.argv[1]))
b = d["baselines"][0]
rows = {r["key"]: r for r in d["rows"]}
ok = b["ran"] and all(rows[k]["baselines"]["tint"]["value"] for k in ("repo_check_ms", "typical_check_ms", "large_check_ms"))
ok = ok and "verdicts" in d["info"]
if not ok: print("FAIL: tint baseline: %s" % json.dumps(d)[:2000])
sys.exit(0 if ok else 1)
PY
else
  echo "note: npm package webgpu not installed: Tint part not run (sh tests/oracle/install.sh)"
fi

# usage errors
$W bench >/dev/null 2>&1; [ $? -eq 2 ] || bad "wgc bench without a benchmark: exit not 2"
$W bench frob >/dev/null 2>&1; [ $? -eq 2 ] || bad "wgc bench frob: exit not 2"
$W bench --help | grep -q 'usage: wgc bench' || bad "wgc bench --help"
[ $fail -eq 0 ] && echo "bench smoke test: ok"
exit $fail
