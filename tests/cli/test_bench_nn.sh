#!/bin/sh
# test_bench_nn.sh - smoke test of `wgc bench nn` on lavapipe at the small size: it runs, exits 0
# (every product checked on sampled outputs against a double host product), prints every row
# with a figure and says why the PyTorch baseline did not run; with a fake baseline script the
# figures land in the torch column and the relative targets follow (sgemm 4096: 80%, matvec:
# 90%).  No timing is asserted.
W=${BUILD:-build}/wgc
fail=0
t=$(mktemp -d /tmp/wgc-test-bench-nn-XXXXXX)
trap 'rm -rf "$t"' EXIT
bad() { echo "FAIL: $*"; fail=1; }
export WGC_CACHE_DIR="$t/cache"

$W bench nn --size small --runs 1 --baseline none >"$t/nn.txt" 2>"$t/nn.err"; rc=$?
[ $rc -eq 0 ] || { bad "bench nn exit $rc"; cat "$t/nn.err"; }
# the rows are named by the sizes that ran (small: sgemm 64^3 128^3 192^3, ragged 63x65x31, ...)
for row in "sgemm f32 64^3" "sgemm f32 128^3" "sgemm f32 192^3" "sgemm f32 63x65x31" \
           "batched matmul 2x64x64x16" "matvec f32 256^2"; do
  line=$(grep -F "$row" "$t/nn.txt" | head -n 1)
  [ -n "$line" ] || { bad "nn row missing: $row"; continue; }
  echo "$line" | sed "s/^.\{40\}//" | awk '{ exit !($1 ~ /^[0-9.]+$/) }' || bad "nn row without a figure: $line"
done
grep -q '^  baseline torch: none (' "$t/nn.txt" || bad "no 'baseline torch: none (reason)' line"

cat >"$t/fake_torch" <<'PY'
#!/bin/sh
echo '{"torch": "0.fake", "device": "Fake GPU", "sgemm1024_TFLOPs": 1.0, "sgemm4096_TFLOPs": 2.0, "sgemm8192_TFLOPs": 2.0, "sgemm_ragged_TFLOPs": 1.5, "bmm_TFLOPs": 1.0, "hgemm4096_TFLOPs": 8.0, "matvec4096_GBps": 100.0}'
PY
chmod +x "$t/fake_torch"
WGC_PYTHON="$t/fake_torch" $W bench nn --size small --runs 1 --json --baseline torch >"$t/nn.json" 2>"$t/nn.err"; rc=$?
[ $rc -eq 0 ] || { bad "bench nn --json exit $rc"; cat "$t/nn.err"; }
python3 - "$t/nn.json" <<'PY' || fail=1
import json, sys
d = json.load(open(sys.argv[1]))
rows = {r["key"]: r for r in d["rows"]}
errs = []
for k in ["sgemm1024_TFLOPs", "sgemm4096_TFLOPs", "sgemm8192_TFLOPs", "sgemm_ragged_TFLOPs", "bmm_TFLOPs",
          "matvec4096_GBps"]:
    if k not in rows: errs.append("missing row " + k); continue
    if not isinstance(rows[k]["wgc"], (int, float)): errs.append("no figure for " + k)
if not d["baselines"] or not d["baselines"][0]["ran"]: errs.append("fake torch baseline not taken")
if abs(rows["sgemm4096_TFLOPs"]["target"] - 1.6) > 1e-9: errs.append("sgemm 4096 target %r" % rows["sgemm4096_TFLOPs"]["target"])
if abs(rows["matvec4096_GBps"]["target"] - 90.0) > 1e-9: errs.append("matvec target %r" % rows["matvec4096_GBps"]["target"])
if rows["matvec4096_GBps"]["baselines"]["torch"]["value"] != 100.0: errs.append("matvec baseline value")
for e in errs: print("FAIL:", e)
sys.exit(1 if errs else 0)
PY
[ $fail -eq 0 ] && echo "ok"
exit $fail
