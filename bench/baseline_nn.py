#!/usr/bin/env python3
"""baseline_nn.py - the PyTorch/CUDA baseline of `wgc bench nn`, measured in the same run.

Usage: python3 bench/baseline_nn.py [--square A,B,C] [--ragged M,N,K] [--bmm B,M,N,K]
                                    [--matvec N] [--conv N,C,K,H,W] [--linear N] [--runs RUNS]
The same products on the same shapes as bench/nn.c, with TF32 off
(torch.backends.cuda.matmul.allow_tf32 = False: cuBLAS f32 SGEMM), each timed as REPS
back-to-back calls between two CUDA events (per-call time = elapsed / REPS, the same REPS as
bench/nn.c), best of RUNS after a warm-up.  Prints one JSON line on stdout whose keys are
bench/nn.c's row keys:
  {"torch": version, "device": name,
   "sgemm1024_TFLOPs", "sgemm4096_TFLOPs", "sgemm8192_TFLOPs": torch.mm of [N, N] f32, 2N^3 flop
   "sgemm_ragged_TFLOPs": torch.mm [M, K] . [K, N]
   "linear4096_TFLOPs":   torch.nn.functional.linear(x, W), x [N, N], W [N, N] (--linear N), no bias
   "linear_ragged_TFLOPs": the same with x [M, K], W [N, K] (the --ragged shape)
   "bmm_TFLOPs":          torch.bmm [B, M, K] . [B, K, N]
   "hgemm4096_TFLOPs":    torch.mm f16 (cuBLAS, tensor cores allowed: PyTorch's default)
   "matvec4096_GBps":     torch.mv(W, x), W [N, N] f32: 4N^2 bytes
   "conv2d_TFLOPs":       F.conv2d f32 (cuDNN, TF32 off: torch.backends.cudnn.allow_tf32 =
                          False), x [N, C, H, W], weight [K, C, 3, 3], bias, padding 1:
                          2 N K H W C 9 flop (bench/nn_conv.c)}
or {"error": reason} with exit status 1 when torch or CUDA is missing.  Every result is checked
against a float64 product on sampled entries; a mismatch is an error too.
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from baseline_common import emit, fail, start  # noqa: E402


def ints(s):
    return [int(v) for v in s.split(",")]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--square", default="1024,4096,8192")
    ap.add_argument("--ragged", default="4095,4097,1023")
    ap.add_argument("--bmm", default="32,512,512,64")
    ap.add_argument("--matvec", type=int, default=4096)
    ap.add_argument("--conv", default="32,64,64,128,128")
    ap.add_argument("--linear", type=int, default=4096)
    ap.add_argument("--runs", type=int, default=5)
    a = ap.parse_args()
    torch, dev, out, g, timed = start(a.runs, 1234)

    def rnd(*shape, dtype=torch.float32):
        return (torch.rand(*shape, device=dev, generator=g) * 2 - 1).to(dtype)

    def check(name, c, x, y):
        # sampled entries against float64
        xb = x if x.dim() == 3 else x.unsqueeze(0)
        yb = y if y.dim() == 3 else y.unsqueeze(0)
        cb = c if c.dim() == 3 else c.unsqueeze(0)
        idx = torch.randint(0, cb.shape[1], (16,), device=dev, generator=g)
        ref = torch.matmul(xb[:, idx].double(), yb.double())
        got = cb[:, idx].double()
        tol = 2e-2 if c.dtype == torch.float16 else 1e-3
        if not torch.allclose(got, ref, rtol=tol, atol=tol):
            fail("%s: result differs from the float64 product" % name)

    def gemm(key, b, m, n, k, reps, dtype=torch.float32):
        if b > 1:
            x, y = rnd(b, m, k, dtype=dtype), rnd(b, k, n, dtype=dtype)
            fn = lambda: torch.bmm(x, y)
        else:
            x, y = rnd(m, k, dtype=dtype), rnd(k, n, dtype=dtype)
            fn = lambda: torch.mm(x, y)
        check(key, fn(), x, y)
        out[key] = 2.0 * b * m * n * k / timed(fn, reps) / 1e12
        del x, y

    s1, s2, s3 = ints(a.square)
    gemm("sgemm1024_TFLOPs", 1, s1, s1, s1, 20)
    gemm("sgemm4096_TFLOPs", 1, s2, s2, s2, 5)
    gemm("sgemm8192_TFLOPs", 1, s3, s3, s3, 2)
    rm, rn, rk = ints(a.ragged)
    gemm("sgemm_ragged_TFLOPs", 1, rm, rn, rk, 5)
    for key, (lm, ln, lk) in (("linear4096_TFLOPs", (a.linear,) * 3), ("linear_ragged_TFLOPs", (rm, rn, rk))):
        x, w = rnd(lm, lk), rnd(ln, lk)
        fn = lambda: torch.nn.functional.linear(x, w)
        check(key, fn(), x, w.t())
        out[key] = 2.0 * lm * ln * lk / timed(fn, 5) / 1e12
        del x, w
    bb, bm, bn, bk = ints(a.bmm)
    gemm("bmm_TFLOPs", bb, bm, bn, bk, 20)
    gemm("hgemm4096_TFLOPs", 1, s2, s2, s2, 5, torch.float16)
    n = a.matvec
    w, x = rnd(n, n), rnd(n)
    y = torch.mv(w, x)
    if not torch.allclose(y.double(), w.double() @ x.double(), rtol=1e-3, atol=1e-3):
        fail("matvec: result differs from the float64 product")
    out["matvec4096_GBps"] = 4.0 * n * n / timed(lambda: torch.mv(w, x), 100) / 1e9
    del w, x
    cn, cc, ck, ch, cw = ints(a.conv)
    torch.backends.cudnn.benchmark = True  # cuDNN picks its fastest algorithm (warm-up call)
    cx, cwt, cb = rnd(cn, cc, ch, cw), rnd(ck, cc, 3, 3) / 24, rnd(ck)
    conv = lambda: torch.nn.functional.conv2d(cx, cwt, cb, padding=1)
    ref = torch.nn.functional.conv2d(cx[:1].double(), cwt.double(), cb.double(), padding=1)
    if not torch.allclose(conv()[:1].double(), ref, rtol=1e-3, atol=1e-3):
        fail("conv2d: result differs from the float64 convolution")
    del ref
    out["conv2d_TFLOPs"] = 2.0 * cn * ck * ch * cw * cc * 9 / timed(conv, 10) / 1e12
    emit(out)


if __name__ == "__main__":
    main()
