#!/usr/bin/env python3
"""baseline_llm.py - the PyTorch/CUDA baseline of `wgc bench llm`, measured in the same run.

Usage: python3 bench/baseline_llm.py [--n N] [--attn H,S,D] [--runs RUNS]
The same ops on the same shapes as bench/nn_llm.c, each timed as REPS back-to-back calls
between two CUDA events (per-call time = elapsed / REPS, the same REPS as bench/nn_llm.c), best
of RUNS after a warm-up.  TF32 is off.  Prints one JSON line on stdout whose keys are
bench/nn_llm.c's row keys:
  {"torch": version, "device": name,
   "softmax_GBps":     torch.softmax(x, -1), x [N, N] f32: 8 N^2 bytes (read + write)
   "layernorm_GBps":   F.layer_norm(x, (N,), w, b)
   "rmsnorm_GBps":     F.rms_norm(x, (N,), w) (torch >= 2.4; else x * rsqrt(mean(x^2) + eps) * w,
                       reported as "rmsnorm_impl": "composite")
   "flash_f32_TFLOPs": F.scaled_dot_product_attention(q, k, v, is_causal=True), [1, H, S, D] f32,
                       4 H S^2 D / 2 flop; "sdpa_f32_backend" names the kernel PyTorch picked
   "flash_f16_TFLOPs": the same in f16}
or {"error": reason} with exit status 1 when torch or CUDA is missing.  Results are checked
against float64 computations on sampled rows; a mismatch is an error too.
"""
import argparse
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from baseline_common import emit, fail, start  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=8192)
    ap.add_argument("--attn", default="32,4096,128")
    ap.add_argument("--runs", type=int, default=5)
    a = ap.parse_args()
    torch, dev, out, g, timed = start(a.runs, 4321)
    import torch.nn.functional as F

    n = a.n
    x = torch.randn(n, n, device=dev, generator=g) * 2
    w = torch.rand(n, device=dev, generator=g) + 0.5
    b = torch.rand(n, device=dev, generator=g) * 2 - 1
    rows = torch.tensor([0, 977 % n, 1954 % n, n - 1], device=dev)
    xd = x[rows].double()

    def check(name, y, ref, tol):
        if not torch.allclose(y[rows].double(), ref, rtol=tol, atol=tol):
            fail("%s: result differs from the float64 reference" % name)

    bytes_ = 8.0 * n * n
    check("softmax", torch.softmax(x, -1), torch.softmax(xd, -1), 1e-5)
    out["softmax_GBps"] = bytes_ / timed(lambda: torch.softmax(x, -1), 20) / 1e9
    check("layernorm", F.layer_norm(x, (n,), w, b, 1e-5), F.layer_norm(xd, (n,), w.double(), b.double(), 1e-5), 1e-4)
    out["layernorm_GBps"] = bytes_ / timed(lambda: F.layer_norm(x, (n,), w, b, 1e-5), 20) / 1e9
    if hasattr(F, "rms_norm"):
        rms = lambda: F.rms_norm(x, (n,), w, 1e-5)
        out["rmsnorm_impl"] = "F.rms_norm"
    else:
        rms = lambda: x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + 1e-5) * w
        out["rmsnorm_impl"] = "composite"
    ref = xd * torch.rsqrt(xd.pow(2).mean(-1, keepdim=True) + 1e-5) * w.double()
    check("rmsnorm", rms(), ref, 1e-4)
    out["rmsnorm_GBps"] = bytes_ / timed(rms, 20) / 1e9
    del x, xd

    H, S, D = [int(v) for v in a.attn.split(",")]
    flop = 4.0 * H * S * S * D / 2
    for key, dt, tol in (("flash_f32_TFLOPs", torch.float32, 1e-4), ("flash_f16_TFLOPs", torch.float16, 5e-3)):
        q, k, v = (torch.randn(1, H, S, D, device=dev, generator=g).to(dt) for _ in range(3))
        fn = lambda: F.scaled_dot_product_attention(q, k, v, is_causal=True)
        y = fn()
        # the last head, a few query rows, against float64
        hq, hk, hv = q[0, -1].double(), k[0, -1].double(), v[0, -1].double()
        for i in (0, 1231 % S, 2462 % S, S - 1):
            p = torch.softmax((hk[: i + 1] @ hq[i]) / math.sqrt(D), -1)
            if not torch.allclose(y[0, -1, i].double(), p @ hv[: i + 1], rtol=tol, atol=tol):
                fail("%s: SDPA result differs from the float64 reference" % key)
        out[key] = flop / timed(fn, 3) / 1e12
        out["sdpa_%s_backend" % ("f32" if dt == torch.float32 else "f16")] = backend(torch, F, q, k, v)
        del q, k, v, y
    emit(out)


def backend(torch, F, q, k, v):
    """The SDPA kernel PyTorch runs for these inputs (the first backend that accepts them alone)."""
    try:
        from torch.nn.attention import SDPBackend, sdpa_kernel
    except Exception:
        return "auto"
    for name in ("FLASH_ATTENTION", "EFFICIENT_ATTENTION", "CUDNN_ATTENTION", "MATH"):
        be = getattr(SDPBackend, name, None)
        if be is None:
            continue
        try:
            with sdpa_kernel([be]):
                F.scaled_dot_product_attention(q[:, :1, :64], k[:, :1, :64], v[:, :1, :64], is_causal=True)
            return name.lower()
        except Exception:
            continue
    return "auto"


if __name__ == "__main__":
    main()
