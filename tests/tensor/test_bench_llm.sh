#!/bin/sh
# test_bench_llm.sh - smoke test of `wgc bench llm` on lavapipe at the small size: it runs, exits
# 0 (every result checked against a double-precision host computation), prints every row with
# a figure and says why the PyTorch baseline did not run; with a fake baseline script (known
# numbers) the figures land in the torch column and the relative targets follow (softmax 150%,
# norms 100%, flash f32 70%, flash f16 none).  No timing is asserted.
W=${BUILD:-build}/wgc
fail=0
t=$(mktemp -d /tmp/wgc-test-bench-llm-XXXXXX)
trap 'rm -rf "$t"' EXIT
bad() { echo "FAIL: $*"; fail=1; }

$W bench llm --size small --baseline none >"$t/llm.txt" 2>"$t/llm.err"; rc=$?
[ $rc -eq 0 ] || { bad "bench llm exit $rc"; cat "$t/llm.err"; }
for row in "softmax f32" "layernorm f32" "rmsnorm f32" "flash attention f32"; do
  line=$(grep -F "$row" "$t/llm.txt" | head -n 1)
  [ -n "$line" ] || { bad "llm row missing: $row"; continue; }
  echo "$line" | sed "s/^.\{44\}//" | awk '{ exit !($1 ~ /^[0-9.]+$/) }' || bad "llm row without a figure: $line"
done
grep -q '^  baseline torch: none (' "$t/llm.txt" || bad "no 'baseline torch: none (reason)' line"

cat >"$t/fake_torch" <<'PY'
#!/bin/sh
echo '{"torch": "0.fake", "device": "Fake GPU", "softmax_GBps": 2.0, "layernorm_GBps": 3.0, "rmsnorm_GBps": 4.0, "flash_f32_TFLOPs": 10.0, "flash_f16_TFLOPs": 20.0, "sdpa_f32_backend": "efficient_attention"}'
PY
chmod +x "$t/fake_torch"
WGC_PYTHON="$t/fake_torch" $W bench llm --size small --json --baseline torch >"$t/llm.json" 2>"$t/llm.err"; rc=$?
[ $rc -eq 0 ] || { bad "bench llm --json exit $rc"; cat "$t/llm.err"; }
python3 - "$t/llm.json" <<'PY' || fail=1
import json, sys
d = json.load(open(sys.argv[1]))
rows = {r["key"]: r for r in d["rows"]}
errs = []
for k in ["softmax_GBps", "layernorm_GBps", "rmsnorm_GBps", "flash_f32_TFLOPs"]:
    if k not in rows: errs.append("missing row " + k); continue
    if not isinstance(rows[k]["wgc"], (int, float)): errs.append("no figure for " + k)
def near(a, b): return a is not None and abs(a - b) <= 1e-9 * max(1, abs(b))
if rows["softmax_GBps"]["baselines"]["torch"]["value"] != 2.0: errs.append("torch softmax figure")
if not near(rows["softmax_GBps"]["target"], 3.0): errs.append("softmax target %r" % rows["softmax_GBps"]["target"])
if not near(rows["layernorm_GBps"]["target"], 3.0): errs.append("layernorm target")
if not near(rows["rmsnorm_GBps"]["target"], 4.0): errs.append("rmsnorm target")
if not near(rows["flash_f32_TFLOPs"]["target"], 7.0): errs.append("flash target")
if rows["flash_f16_TFLOPs"]["target"] is not None: errs.append("flash f16 has a target")
for e in errs: print("FAIL:", e)
sys.exit(1 if errs else 0)
PY
[ $fail -eq 0 ] && echo "ok"
exit $fail
