#!/bin/sh
# test_bench_generate.sh - smoke test of `wgc bench generate` on lavapipe at --size small (tiny
# synthetic shapes of the three models): it runs, exits 0, prints every model's decode, prefill,
# weight-read and peak-memory rows with a figure and why each baseline did not run; the synthetic
# GGUF files it wrote are read by the PyPI gguf package (the llama.cpp project's reader, installed
# by tests/llm/install_gguf.sh): every tensor llama.cpp's loader needs is there with its shape, the
# types follow llama.cpp's Q4_K_M recipe (recomputed here) or SmolLM2's Q4_1 file, and every block
# dequantizes to finite weights of a trained model's range.  With a fake llama-bench (llama.cpp's
# JSON, for the -p/-n it is given) and a fake baseline_generate.py (known numbers), the figures
# land in their columns with the ratios and targets, the files are reused, not rewritten, and bad
# input is refused.  No timing is asserted.
W=${BUILD:-build}/wgc
PY=${WGC_TEST_PYTHON:-/usr/bin/python3}
fail=0
t=$(mktemp -d /tmp/wgc-test-bench-generate-XXXXXX)
trap 'rm -rf "$t"' EXIT
bad() { echo "FAIL: $*"; fail=1; }
S="--size small --synth-dir $t/synth"

$W bench generate $S --baseline none >"$t/gen.txt" 2>"$t/gen.err"; rc=$?
[ $rc -eq 0 ] || { bad "bench generate exit $rc"; cat "$t/gen.err"; }
for m in "SmolLM2-135M Q4_1" "Llama-3.2-1B Q4_K_M" "Llama-3-8B Q4_K_M"; do
  for row in "decode tg8" "prefill pp16" "decode weight read" "peak memory"; do
    line=$(grep -F "$m $row" "$t/gen.txt" | head -n 1)
    [ -n "$line" ] || { bad "row missing: $m $row"; continue; }
    echo "$line" | sed "s/^.\{44\}//" | awk '{ exit !($1 ~ /^[0-9.]+$/ && $1 > 0) }' || bad "row without a figure: $line"
  done
done
grep -q '^  baseline llama.cpp: none (' "$t/gen.txt" || bad "no 'baseline llama.cpp: none (reason)' line"
grep -q '^  baseline torch: none (' "$t/gen.txt" || bad "no 'baseline torch: none (reason)' line"
n=$(ls "$t/synth"/*.gguf 2>/dev/null | wc -l)
[ "$n" -eq 3 ] || bad "expected 3 synthetic files, found $n: $(ls "$t/synth")"
ls "$t/synth" | grep -q '\.tmp$' && bad "a temporary file was left: $(ls "$t/synth")"

# the files, read by llama.cpp's own Python reader
GG=$(sh tests/llm/install_gguf.sh) || bad "cannot install the gguf package (tests/llm/install_gguf.sh)"
PYTHONPATH=$GG $PY - "$t/synth" <<'PY' || fail=1
import glob, os, re, sys
import numpy as np
from gguf import GGUFReader
from gguf.quants import dequantize
errs = []
def more_bits(i, n):   # llama.cpp's use_more_bits (llama-quant.cpp), from its description
    return i < n // 8 or i >= 7 * n // 8 or (i - n // 8) % 3 == 2
for path in sorted(glob.glob(os.path.join(sys.argv[1], "*.gguf"))):
    name = os.path.basename(path)
    m = re.search(r"-L(\d+)-E(\d+)-H(\d+)x(\d+)-F(\d+)-V(\d+)-C\d+(-tied)?\.(Q4_K_M|Q4_1)\.", name)
    if not m: errs.append("file name " + name); continue
    L, E, H, KV, F, V = (int(m.group(i)) for i in range(1, 7))
    tied, recipe = bool(m.group(7)), m.group(8)
    r = GGUFReader(path)
    f = r.fields
    def val(k):
        p = f[k]; return p.parts[p.data[0]].tolist()[0] if k in f else None
    def sval(k):
        p = f[k]; return bytes(p.parts[p.data[0]]).decode() if k in f else None
    if sval("general.architecture") != "llama": errs.append(name + ": architecture")
    for k, v in [("llama.block_count", L), ("llama.embedding_length", E), ("llama.attention.head_count", H),
                 ("llama.attention.head_count_kv", KV), ("llama.feed_forward_length", F)]:
        if val(k) != v: errs.append("%s: %s = %r, expected %d" % (name, k, val(k), v))
    toks = f["tokenizer.ggml.tokens"]
    if len(toks.data) != V or sval("tokenizer.ggml.model") != "gpt2": errs.append(name + ": vocabulary")
    if val("tokenizer.ggml.bos_token_id") >= V or val("tokenizer.ggml.eos_token_id") >= V: errs.append(name + ": bos/eos")
    kq, hd = recipe == "Q4_K_M", E // H
    want = {"token_embd.weight": ([E, V], ("Q6_K" if tied else "Q4_K") if kq else "Q8_0"), "output_norm.weight": ([E], "F32")}
    if not tied: want["output.weight"] = ([E, V], "Q6_K")
    for l in range(L):
        mat = "Q4_K" if kq else "Q4_1"
        more = "Q6_K" if kq and more_bits(l, L) else mat
        for t, shape, ty in [("attn_norm", [E], "F32"), ("attn_q", [E, E], mat), ("attn_k", [E, KV * hd], mat),
                             ("attn_v", [E, KV * hd], more), ("attn_output", [E, E], mat), ("ffn_norm", [E], "F32"),
                             ("ffn_gate", [E, F], mat), ("ffn_up", [E, F], mat), ("ffn_down", [F, E], more)]:
            want["blk.%d.%s.weight" % (l, t)] = (shape, ty)
    got = {t.name: t for t in r.tensors}
    if set(got) != set(want): errs.append("%s: tensors %s" % (name, sorted(set(got) ^ set(want))))
    for k, (shape, ty) in want.items():
        t = got.get(k)
        if t is None: continue
        if list(t.shape) != shape or t.tensor_type.name != ty:
            errs.append("%s: %s %s %s, expected %s %s" % (name, k, list(t.shape), t.tensor_type.name, shape, ty)); continue
        w = dequantize(t.data, t.tensor_type).astype(np.float64)
        if not np.isfinite(w).all() or (ty != "F32" and not 0.005 < np.abs(w).max() < 0.5):
            errs.append("%s: %s values: max |w| %g" % (name, k, np.abs(w).max()))
    if kq and L >= 3 and not any(got["blk.%d.attn_v.weight" % l].tensor_type.name == "Q4_K" for l in range(L)):
        errs.append(name + ": no layer keeps Q4_K for attn_v")
for e in errs: print("FAIL: " + e)
sys.exit(1 if errs else 0)
PY

# fake baselines: known numbers in their columns, the ratios and targets
stamp=$(ls -l --time-style=+%s.%N "$t/synth")
cat >"$t/llama-bench" <<EOF
#!/bin/sh
echo "\$@" >>"$t/llama-bench.args"
p=0; n=0
while [ \$# -gt 0 ]; do case \$1 in -p) p=\$2; shift;; -n) n=\$2; shift;; esac; shift; done
cat <<JSON
[
  {"build_commit": "fake1", "backends": "CPU", "cpu_info": "Fake CPU", "gpu_info": "", "n_threads": 2, "model_size": 2000000,
   "n_prompt": \$p, "n_gen": 0, "avg_ts": 400.0, "samples_ts": [400.0, 399.0]},
  {"build_commit": "fake1", "backends": "CPU", "cpu_info": "Fake CPU", "gpu_info": "", "n_threads": 2, "model_size": 2000000,
   "n_prompt": 0, "n_gen": \$n, "avg_ts": 50.0, "samples_ts": [50.0]}
]
JSON
EOF
cat >"$t/fake_torch" <<'PY'
#!/bin/sh
echo '{"torch": "0.fake", "device": "Fake GPU", "transformers": "0.fake", "smollm2_decode_tok_s": 10.0, "smollm2_prefill_tok_s": 100.0, "smollm2_peak_MiB": 8.0, "llama1b_decode_tok_s": 5.0, "llama1b_prefill_tok_s": 50.0, "llama1b_peak_MiB": 16.0, "llama8b_decode_tok_s": 2.0, "llama8b_prefill_tok_s": 20.0, "llama8b_peak_MiB": 32.0}'
PY
chmod +x "$t/llama-bench" "$t/fake_torch"
WGC_LLAMA_BENCH="$t/llama-bench" WGC_LLAMA_BENCH_ARGS="--repack 0" WGC_PYTHON="$t/fake_torch" \
  $W bench generate $S --json --baseline llama.cpp,torch >"$t/gen.json" 2>"$t/gen.err"; rc=$?
[ $rc -eq 0 ] || { bad "bench generate --json exit $rc"; cat "$t/gen.err"; }
[ "$(ls -l --time-style=+%s.%N "$t/synth")" = "$stamp" ] || bad "the synthetic files were rewritten"
[ "$(wc -l <"$t/llama-bench.args")" -eq 3 ] || bad "llama-bench ran $(wc -l <"$t/llama-bench.args") times, expected 3"
grep -v -e '-p 16 -n 8 -fa 1 -r 1 -o json --repack 0$' "$t/llama-bench.args" && bad "llama-bench arguments (above)"
$PY - "$t/gen.json" <<'PY' || fail=1
import json, sys
d = json.load(open(sys.argv[1]))
rows = {r["key"]: r for r in d["rows"]}
bl = {b["name"]: b for b in d["baselines"]}
errs = []
def near(a, b): return a is not None and abs(a - b) <= 1e-4 * max(1e-9, abs(b))  # JSON keeps 6 digits
if not bl["llama.cpp"]["ran"] or "fake1" not in bl["llama.cpp"]["info"]: errs.append("llama.cpp baseline %r" % bl["llama.cpp"])
if not bl["torch"]["ran"]: errs.append("torch baseline %r" % bl["torch"])
torch = {"smollm2": (10.0, 100.0, 8.0), "llama1b": (5.0, 50.0, 16.0), "llama8b": (2.0, 20.0, 32.0)}
for m, (td, tp, tm) in torch.items():
    for what, base, rel, tb in [("decode_tok_s", 50.0, 1.0, td), ("prefill_tok_s", 400.0, 0.8, tp)]:
        r = rows.get(m + "_" + what)
        if not r: errs.append("missing row %s_%s" % (m, what)); continue
        if not isinstance(r["wgc"], (int, float)) or not r["wgc"] > 0: errs.append("no figure for " + r["key"])
        lc = r["baselines"]["llama.cpp"]
        if lc["value"] != base or not near(lc["ratio"], r["wgc"] / base): errs.append("%s llama.cpp %r" % (r["key"], lc))
        if not near(r["target"], base * rel): errs.append("%s target %r" % (r["key"], r["target"]))
        tc = r["baselines"]["torch"]
        if tc["value"] != tb or not near(tc["ratio"], r["wgc"] / tb): errs.append("%s torch %r" % (r["key"], tc))
    r = rows[m + "_decode_GBps"]
    if not near(r["baselines"]["llama.cpp"]["value"], 2000000 * 50.0 / 1e9): errs.append("%s llama.cpp %r" % (r["key"], r["baselines"]))
    r = rows[m + "_peak_MiB"]
    if r["baselines"]["torch"]["value"] != tm or not near(r["baselines"]["torch"]["ratio"], tm / r["wgc"]): errs.append("%s torch %r" % (r["key"], r["baselines"]))
    if not r["target"] or not r["target"] > 0: errs.append("%s: no target (weights + KV + 10%%)" % r["key"])
for e in errs: print("FAIL: " + e)
sys.exit(1 if errs else 0)
PY

# a llama-bench that fails is a baseline that did not run, not an error
printf '#!/bin/sh\necho broken >&2\nexit 3\n' >"$t/broken"
chmod +x "$t/broken"
$W bench generate $S --models smollm2 --baseline llama.cpp --llama-bench "$t/broken" >"$t/broken.txt" 2>&1 ||
  bad "a failing llama-bench made the command fail: $(cat "$t/broken.txt")"
grep -q "baseline llama.cpp: none (.*broken failed" "$t/broken.txt" || bad "no reason for the failed llama-bench: $(grep baseline "$t/broken.txt")"

# a Vulkan build of llama-bench is a third column, only when given
WGC_LLAMA_BENCH_VULKAN="$t/llama-bench" $W bench generate $S --models smollm2 --baseline llama.cpp-vk >"$t/vk.txt" 2>&1 ||
  bad "--baseline llama.cpp-vk failed: $(cat "$t/vk.txt")"
grep -q "^  baseline llama.cpp-vk: llama.cpp fake1 " "$t/vk.txt" || bad "no llama.cpp-vk column: $(grep baseline "$t/vk.txt")"
grep -q "baseline llama.cpp-vk" "$t/gen.txt" && bad "a llama.cpp-vk column without \$WGC_LLAMA_BENCH_VULKAN"

# bad input
$W bench generate $S -m "$t/missing.gguf" --baseline none >/dev/null 2>"$t/err1" && bad "a missing -m file succeeded"
grep -q "missing.gguf" "$t/err1" || bad "the missing -m file is not named: $(cat "$t/err1")"
$W bench generate --models smollm2,gpt5 >/dev/null 2>"$t/err2" && bad "--models gpt5 accepted"
grep -q "gpt5" "$t/err2" || bad "the unknown model is not named: $(cat "$t/err2")"
$W bench generate $S -m "$t/synth" --baseline none >/dev/null 2>"$t/err3" && bad "a directory as -m succeeded"
[ $fail -eq 0 ] && echo "test_bench_generate: ok"
exit $fail
