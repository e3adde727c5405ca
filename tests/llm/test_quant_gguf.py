"""test_quant_gguf.py - our GPU decode of every weight format (wt_qdequantize, through
`test_quant --gguf FILE TENSOR OUT.npy`, which uploads the tensor straight from wl's mapping)
against the PyPI gguf package's gguf.quants.dequantize, the llama.cpp project's reference.

1. A GGUF file written here with gguf.GGUFWriter holds one tensor per format: blocks made by the
   package's own quantize where it has one (F16, BF16, Q4_0, Q4_1, Q5_0, Q5_1, Q8_0, from normal
   random weights), else random bytes with finite f16 scales (Q2_K .. Q6_K: the package cannot
   quantize them), in real models' shapes (rows of 576 = SmolLM2's width for the 32-weight
   formats, 2048 = Llama-3.2-1B's for the super-block ones).
2. The real model (argv[2]): a Q4_1 tensor and the Q8_0 token embedding.

Every weight must equal gguf's bit for bit or within one f32 ulp (a driver may contract d q + m
into one fma); the figures are printed.  Usage: test_quant_gguf.py TEST_QUANT MODEL TMPDIR"""
import os
import subprocess
import sys

import numpy as np
from gguf import GGMLQuantizationType as T, GGUFReader, GGUFWriter
from gguf import quants
from gguf.constants import GGML_QUANT_SIZES

binary, model, tmp = sys.argv[1:4]
rng = np.random.default_rng(20)
fails = []

# where each format's f16 scales sit in a block (the rest may be any bytes)
SCALES = {T.Q2_K: (80, 82), T.Q3_K: (108,), T.Q4_K: (0, 2), T.Q5_K: (0, 2), T.Q6_K: (208,)}
QUANTIZED = (T.F16, T.BF16, T.Q4_0, T.Q4_1, T.Q5_0, T.Q5_1, T.Q8_0)


def random_blocks(qt, rows, cols):
    blk, size = GGML_QUANT_SIZES[qt]
    b = rng.integers(0, 256, size=(rows * cols // blk, size), dtype=np.uint8)
    for off in SCALES[qt]:
        s = (rng.uniform(0.001, 0.25, size=b.shape[0]) * rng.choice([-1, 1], size=b.shape[0])).astype(np.float16)
        b[:, off:off + 2] = s.view(np.uint8).reshape(-1, 2)
    return b.reshape(rows, -1)


def ours(path, name):
    out = os.path.join(tmp, name + ".npy")
    r = subprocess.run([binary, "--gguf", path, name, out], capture_output=True, text=True)
    if r.returncode != 0:
        fails.append(f"{name}: test_quant failed: {r.stdout}{r.stderr}")
        return None
    return np.load(out)


def compare(label, got, want):
    if got is None:
        return
    if got.shape != want.shape:
        fails.append(f"{label}: shape {got.shape} vs gguf's {want.shape}")
        return
    want = want.astype(np.float32)
    exact = np.sum(got.view(np.uint32) == want.view(np.uint32))
    ulp = np.abs(np.spacing(want))
    diff = np.abs(got.astype(np.float64) - want.astype(np.float64))
    worst = float(np.max(diff / ulp)) if diff.size else 0.0
    print(f"{label:28s} {want.size:9d} weights, {exact:9d} bit-exact, worst {worst:.2f} ulp")
    if not np.all(diff <= ulp) or not np.all(np.isfinite(got)):
        fails.append(f"{label}: {int(np.sum(diff > ulp))} weights differ by more than one ulp (worst {worst:.1f})")


# 1. every format in a GGUF file of our own
path = os.path.join(tmp, "formats.gguf")
w = GGUFWriter(path, "llama")
formats = []
for qt in (T.F32,) + QUANTIZED + tuple(SCALES):
    blk, _ = GGML_QUANT_SIZES[qt]
    rows, cols = (64, 2048) if blk == 256 else (96, 576)
    if qt == T.F32:
        data = rng.standard_normal((rows, cols)).astype(np.float32)
        w.add_tensor(qt.name, data)
    elif qt in QUANTIZED:
        data = quants.quantize(rng.standard_normal((rows, cols)).astype(np.float32) * 0.05, qt)
        w.add_tensor(qt.name, data, raw_dtype=qt if data.dtype == np.uint8 else None)
    else:
        w.add_tensor(qt.name, random_blocks(qt, rows, cols), raw_dtype=qt)
    formats.append(qt)
w.write_header_to_file()
w.write_kv_data_to_file()
w.write_tensors_to_file()
w.close()
r = GGUFReader(path)
for t in r.tensors:
    compare(f"{t.name} ({tuple(int(x) for x in t.shape)})", ours(path, t.name), quants.dequantize(t.data, t.tensor_type))
if len(r.tensors) != len(formats):
    fails.append(f"{len(r.tensors)} tensors written, {len(formats)} meant")

# 2. the real model
r = GGUFReader(model)
for name in ("blk.0.attn_q.weight", "blk.7.ffn_down.weight", "token_embd.weight"):
    t = next(x for x in r.tensors if x.name == name)
    compare(f"{name} {t.tensor_type.name}", ours(model, name), quants.dequantize(t.data, t.tensor_type))

for f in fails:
    print("FAIL:", f)
sys.exit(1 if fails else 0)
