#!/bin/sh
# test_bench_ops.sh - smoke test of `wgc bench ops` on lavapipe at the small size: it runs, exits
# 0 (every result checked against the host), prints every row with a figure and says why the
# PyTorch baseline did not run; with a fake baseline script (known numbers) the figures land in
# the torch column and the relative targets are computed from them (sum: 95%).  No timing is
# asserted.
W=${BUILD:-build}/wgc
fail=0
t=$(mktemp -d /tmp/wgc-test-bench-ops-XXXXXX)
trap 'rm -rf "$t"' EXIT
bad() { echo "FAIL: $*"; fail=1; }

$W bench ops --size small --baseline none >"$t/ops.txt" 2>"$t/ops.err"; rc=$?
[ $rc -eq 0 ] || { bad "bench ops exit $rc"; cat "$t/ops.err"; }
for row in "add, f32" "mul, f32" "5 unary ops in a row" "sum over everything" "sum over dim 0" \
           "sum over dim 1" "transpose t x t" "cat of two" "dependent tiny op, one batch, end to end" \
           "dependent tiny op, CPU record" "5 unary ops in a row, fusion off" "dependent tiny op, GPU time" \
           "dependent tiny op unfused, end to end" "dependent tiny op unfused, GPU time"; do
  line=$(grep -F "$row" "$t/ops.txt" | head -n 1)
  [ -n "$line" ] || { bad "ops row missing: $row"; continue; }
  echo "$line" | sed "s/^.\{40\}//" | awk '{ exit !($1 ~ /^[0-9.]+$/) }' || bad "ops row without a figure: $line"
done
grep -q '^  baseline torch: none (' "$t/ops.txt" || bad "no 'baseline torch: none (reason)' line"

cat >"$t/fake_torch" <<'PY'
#!/bin/sh
echo '{"torch": "0.fake", "device": "Fake GPU", "add_GBps": 2.0, "mul_GBps": 2.0, "unary5_GBps": 2.0, "sum_all_GBps": 4.0, "sum_dim0_GBps": 4.0, "sum_dim1_GBps": 4.0, "transpose_GBps": 1.0, "cat_GBps": 1.0, "tiny_e2e_us": 1000.0, "tiny_record_us": 3.0, "unary5_unfused_GBps": 2.0, "tiny_gpu_us": 900.0}'
PY
chmod +x "$t/fake_torch"
WGC_PYTHON="$t/fake_torch" $W bench ops --size small --json --baseline torch >"$t/ops.json" 2>"$t/ops.err"; rc=$?
[ $rc -eq 0 ] || { bad "bench ops --json exit $rc"; cat "$t/ops.err"; }
python3 - "$t/ops.json" <<'PY' || fail=1
import json, sys
d = json.load(open(sys.argv[1]))
rows = {r["key"]: r for r in d["rows"]}
errs = []
for k in ["add_GBps", "mul_GBps", "unary5_GBps", "sum_all_GBps", "sum_dim0_GBps", "sum_dim1_GBps",
          "transpose_GBps", "cat_GBps", "tiny_e2e_us", "tiny_record_us", "unary5_unfused_GBps", "tiny_gpu_us",
          "tiny_unfused_e2e_us", "tiny_unfused_gpu_us"]:
    if k not in rows: errs.append("missing row " + k); continue
    if not isinstance(rows[k]["wgc"], (int, float)): errs.append("no figure for " + k)
b = rows["sum_all_GBps"]["baselines"]["torch"]
if b["value"] != 4.0: errs.append("torch sum figure %r" % b["value"])
if abs(rows["sum_all_GBps"]["target"] - 3.8) > 1e-9: errs.append("sum target %r" % rows["sum_all_GBps"]["target"])
if abs(rows["transpose_GBps"]["target"] - 0.8) > 1e-9: errs.append("transpose target")
if rows["tiny_e2e_us"]["target"] != 2.5: errs.append("tiny target")
if rows["unary5_unfused_GBps"].get("target") is not None: errs.append("the fusion-off row has a target")
if rows["tiny_gpu_us"]["baselines"]["torch"]["value"] != 900.0: errs.append("tiny GPU baseline")
if "GPU time" not in rows["add_GBps"]["note"]: errs.append("add not timed on the GPU: " + rows["add_GBps"]["note"])
r = rows["tiny_e2e_us"]["baselines"]["torch"]
if abs(r["ratio"] - 1000.0 / rows["tiny_e2e_us"]["wgc"]) > 1e-4 * r["ratio"]: errs.append("tiny ratio")
for e in errs: print("FAIL:", e)
sys.exit(1 if errs else 0)
PY
[ $fail -eq 0 ] && echo "ok"
exit $fail
