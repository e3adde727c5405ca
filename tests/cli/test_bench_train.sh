#!/bin/sh
# test_bench_train.sh - smoke test of `wgc bench train` on lavapipe at tiny sizes: it runs, exits 0
# (a non-finite loss would be a wrong result), prints the CNN and GPT step and peak-memory rows
# and the mixed-precision (autocast + GradScaler) step rows with a figure, and why the PyTorch baseline did not
# run; with a fake baseline script (known numbers) the figures land in the torch column with the
# ratios (baseline / ours) and targets.  Then `--agree DIR` at a few steps: the initial
# parameters have the shapes meta.json and bench/baseline_train.py list, the batches their
# shapes, and losses.txt one finite loss per step.  No timing is asserted.
W=${BUILD:-build}/wgc
PY=${WGC_TEST_PYTHON:-/usr/bin/python3}
fail=0
t=$(mktemp -d /tmp/wgc-test-bench-train-XXXXXX)
trap 'rm -rf "$t"' EXIT
bad() { echo "FAIL: $*"; fail=1; }
TINY="--cnn-batch 8 --gpt 1,16,2,8,2,32 --runs 1"

$W bench train --size small $TINY --baseline none >"$t/train.txt" 2>"$t/train.err"; rc=$?
[ $rc -eq 0 ] || { bad "bench train exit $rc"; cat "$t/train.err"; }
for row in "digits CNN step f32" "digits CNN peak GPU memory" "GPT step f32" "GPT peak GPU memory f32" \
           "GPT step mixed precision f16" "digits CNN step amp f16"; do
  line=$(grep -F "$row" "$t/train.txt" | head -n 1)
  [ -n "$line" ] || { bad "train row missing: $row"; continue; }
  echo "$line" | sed "s/^.\{44\}//" | awk '{ exit !($1 ~ /^[0-9.]+$/) }' || bad "train row without a figure: $line"
done
grep -q "loss scale" "$t/train.txt" || bad "no loss scale in the mixed-precision rows' notes"
grep -q '^  baseline torch: none (' "$t/train.txt" || bad "no 'baseline torch: none (reason)' line"
$W bench train --gpt 1,30,4,8,2,32 >/dev/null 2>&1 && bad "--gpt with heads not dividing the width accepted"

cat >"$t/fake_torch" <<'PY'
#!/bin/sh
echo '{"torch": "0.fake", "device": "Fake GPU", "cnn_step_ms": 2.0, "cnn_peak_MiB": 10.0, "gpt_step_ms": 9.0, "gpt_peak_MiB": 100.0, "gpt_amp_step_ms": 4.0, "cnn_amp_step_ms": 1.5}'
PY
chmod +x "$t/fake_torch"
WGC_PYTHON="$t/fake_torch" $W bench train --size small $TINY --json --baseline torch >"$t/train.json" 2>"$t/train.err"; rc=$?
[ $rc -eq 0 ] || { bad "bench train --json exit $rc"; cat "$t/train.err"; }
$PY - "$t/train.json" <<'PY' || fail=1
import json, sys
d = json.load(open(sys.argv[1]))
rows = {r["key"]: r for r in d["rows"]}
errs = []
def near(a, b): return a is not None and abs(a - b) <= 1e-9 * max(1, abs(b))
for k, base, rel in [("cnn_step_ms", 2.0, 1.0), ("cnn_peak_MiB", 10.0, 1.2), ("gpt_step_ms", 9.0, 1 / 0.9),
                     ("gpt_peak_MiB", 100.0, 1.2), ("gpt_amp_step_ms", 4.0, 1 / 0.5)]:
    r = rows.get(k)
    if not r: errs.append("missing row " + k); continue
    if not isinstance(r["wgc"], (int, float)) or not r["wgc"] > 0: errs.append("no figure for " + k)
    if r["baselines"]["torch"]["value"] != base: errs.append("torch figure of " + k)
    if not near(r["target"], base * rel): errs.append("%s target %r" % (k, r["target"]))
    if abs(r["baselines"]["torch"]["ratio"] * r["wgc"] / base - 1) > 1e-3: errs.append("%s ratio %r" % (k, r["baselines"]["torch"]["ratio"]))
ca = rows.get("cnn_amp_step_ms")   # reported, no target
if not ca or not ca["wgc"] or ca["baselines"]["torch"]["value"] != 1.5 or ca.get("target") is not None: errs.append("cnn_amp_step_ms row %r" % ca)
for e in errs: print("FAIL: " + e)
sys.exit(1 if errs else 0)
PY

$W bench train --agree "$t/agree" --agree-steps 3,2 --agree-gpt 1,16,2,8,2 >"$t/agree.txt" 2>"$t/agree.err"; rc=$?
[ $rc -eq 0 ] || { bad "bench train --agree exit $rc"; cat "$t/agree.err"; }
grep -q "wrote $t/agree" "$t/agree.txt" || bad "no 'wrote DIR' line: $(cat "$t/agree.txt")"
$W bench train --agree "$t/agree2" --agree-steps 1,1 --text "$t/missing.txt" >/dev/null 2>"$t/err2" && bad "--agree with a missing --text succeeded"
grep -q "missing.txt" "$t/err2" || bad "the missing --text file is not named: $(cat "$t/err2")"
PYTHONPATH=bench $PY - "$t/agree" <<'PY' || fail=1
import json, math, os, sys
import numpy as np
from baseline_train import cnn_shapes, gpt_shapes
d = sys.argv[1]
m = json.load(open(os.path.join(d, "meta.json")))
errs = []
def check_params(sub, shapes):
    for i, s in enumerate(shapes):
        a = np.load(os.path.join(d, sub, "p%03d.npy" % i))
        if a.dtype != np.float32 or tuple(a.shape) != tuple(s): errs.append("%s p%03d %s %s, expected %s" % (sub, i, a.dtype, a.shape, s))
        elif not np.isfinite(a).all(): errs.append("%s p%03d not finite" % (sub, i))
    if os.path.exists(os.path.join(d, sub, "p%03d.npy" % len(shapes))): errs.append(sub + ": more parameters than listed")
def check_losses(sub, steps):
    v = [float(l) for l in open(os.path.join(d, sub, "losses.txt"))]
    if len(v) != steps or not all(math.isfinite(x) and x > 0 for x in v): errs.append("%s losses %r" % (sub, v))
c, g = m["cnn"], m["gpt"]
if [list(s) for s in cnn_shapes()] != c["params"]: errs.append("meta.json cnn params %r" % c["params"])
check_params("cnn", cnn_shapes())
x, y = np.load(os.path.join(d, "cnn", "x.npy")), np.load(os.path.join(d, "cnn", "y.npy"))
if x.shape != (3, c["batch"], 1, 8, 8) or y.shape != (3, c["batch"]) or y.min() < 0 or y.max() > 9: errs.append("cnn batches %s %s" % (x.shape, y.shape))
check_losses("cnn", 3)
L, C, H, T, B, V = g["layers"], g["width"], g["heads"], g["seq"], g["batch"], g["vocab"]
if (L, C, H, T, B, g["steps"]) != (1, 16, 2, 8, 2, 2): errs.append("meta.json gpt %r" % g)
check_params("gpt", [s for s, _ in gpt_shapes(L, C, T, V)])
tok = np.load(os.path.join(d, "gpt", "tokens.npy"))
if tok.shape != (2, B, T + 1) or tok.min() < 0 or tok.max() >= V or len(g["chars"]) != V: errs.append("gpt tokens %s max %d V %d" % (tok.shape, tok.max(), V))
check_losses("gpt", 2)
for e in errs: print("FAIL: " + e)
sys.exit(1 if errs else 0)
PY
[ $fail -eq 0 ] && echo "test_bench_train: ok"
exit $fail
