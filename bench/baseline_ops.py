#!/usr/bin/env python3
"""baseline_ops.py - the PyTorch/CUDA baseline of `wgc bench ops`, measured in the same run.

Usage: python3 bench/baseline_ops.py [--n N] [--rows R] [--cols C] [--t T] [--cat R,C]
                                     [--ops K] [--runs RUNS] [--reps REPS]
The same ops on the same shapes as bench/ops.c, each timed as REPS back-to-back calls between
two CUDA events (per-call time = elapsed / REPS), best of RUNS after a warm-up.  Prints one JSON
line on stdout whose keys are bench/ops.c's row keys:
  {"torch": version, "device": name,
   "add_GBps", "mul_GBps":  torch.add / torch.mul on n f32, 3*4n bytes
   "unary5_GBps":           sigmoid, sqrt, neg, abs, relu in a row, 5*8n bytes
   "unary5_unfused_GBps":   the same figure (eager PyTorch never fuses) for wgc's fusion-off row
   "sum_all_GBps":          x.sum() of n f32, 4n bytes
   "sum_dim0_GBps", "sum_dim1_GBps": x.sum(0), x.sum(1) of [R, C], 4RC bytes
   "transpose_GBps":        x.t().contiguous() of [T, T], 8T^2 bytes
   "cat_GBps":              torch.cat([p, q], 1) of two [R, C], 16RC bytes
   "tiny_e2e_us":           K dependent ops (x * 1.001, + 0.5 alternating) on 1024 f32 + synchronize, wall / K
   "tiny_record_us":        the same K launches without the synchronize, wall / K (CPU launch cost)
   "tiny_graph_us":         the same K ops in a CUDA graph, replay timed with events / K
   "tiny_gpu_us", "tiny_unfused_gpu_us": the same figure, for wgc's GPU-time rows
   "tiny_unfused_e2e_us":   tiny_e2e_us again, for wgc's fusion-off row}
or {"error": reason} with exit status 1 when torch or CUDA is missing.  Every result is checked
against a reference computed another way; a mismatch is an error too.
"""
import argparse
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from baseline_common import emit, fail, start  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=1 << 26)
    ap.add_argument("--rows", type=int, default=8192)
    ap.add_argument("--cols", type=int, default=8192)
    ap.add_argument("--t", type=int, default=4096)
    ap.add_argument("--cat", default="4096,8192")
    ap.add_argument("--ops", type=int, default=1000)
    ap.add_argument("--runs", type=int, default=10)
    ap.add_argument("--reps", type=int, default=10)
    a = ap.parse_args()
    torch, dev, out, g, timed_reps = start(a.runs, 1234)
    runs, reps = max(1, a.runs), max(1, a.reps)

    def timed(fn):  # seconds per call, CUDA events, best of runs
        return timed_reps(fn, reps)

    def close(x, y, tol):
        return bool(torch.allclose(x.double(), y.double(), rtol=tol, atol=tol))

    n = a.n
    x = torch.rand(n, device=dev, generator=g) + 0.5
    y = torch.rand(n, device=dev, generator=g) - 2.0
    out["add_GBps"] = 12 * n / timed(lambda: torch.add(x, y)) / 1e9
    out["mul_GBps"] = 12 * n / timed(lambda: torch.mul(x, y)) / 1e9

    def unary5():
        return torch.relu(torch.abs(torch.neg(torch.sqrt(torch.sigmoid(x)))))

    out["unary5_GBps"] = 40 * n / timed(unary5) / 1e9
    out["unary5_unfused_GBps"] = out["unary5_GBps"]
    out["sum_all_GBps"] = 4 * n / timed(lambda: x.sum()) / 1e9
    if not torch.equal(torch.add(x, y), x.double().add(y.double()).float()):
        fail("add result wrong")
    if not close(unary5(), torch.sigmoid(x.double()).sqrt(), 1e-6):
        fail("unary chain result wrong")
    if not close(x.sum(), x.double().sum(), 1e-5):
        fail("sum result wrong")
    del x, y

    m = torch.rand(a.rows, a.cols, device=dev, generator=g) * 2 - 1
    out["sum_dim0_GBps"] = 4 * m.numel() / timed(lambda: m.sum(0)) / 1e9
    out["sum_dim1_GBps"] = 4 * m.numel() / timed(lambda: m.sum(1)) / 1e9
    if not close(m.sum(0), m.double().sum(0), 1e-4) or not close(m.sum(1), m.double().sum(1), 1e-4):
        fail("sum over a dim wrong")
    del m
    t = torch.rand(a.t, a.t, device=dev, generator=g)
    out["transpose_GBps"] = 8 * t.numel() / timed(lambda: t.t().contiguous()) / 1e9
    if not torch.equal(t.t().contiguous().t(), t):
        fail("transpose wrong")
    del t
    cr, cc = (int(v) for v in a.cat.split(","))
    p = torch.rand(cr, cc, device=dev, generator=g)
    q = torch.rand(cr, cc, device=dev, generator=g)
    out["cat_GBps"] = 16 * p.numel() / timed(lambda: torch.cat([p, q], 1)) / 1e9
    c = torch.cat([p, q], 1)
    if not (torch.equal(c[:, :cc], p) and torch.equal(c[:, cc:], q)):
        fail("cat wrong")
    del p, q, c

    # tiny dependent ops
    K = max(1, a.ops)
    v0 = (torch.arange(1024, device=dev) % 100).float() * 0.01

    def chain(v):
        for i in range(K):
            v = v + 0.5 if i % 2 else v * 1.001
        return v

    best_e2e = best_rec = float("inf")
    for _ in range(runs + 1):
        torch.cuda.synchronize()
        t0 = time.perf_counter()
        r = chain(v0)
        t1 = time.perf_counter()
        torch.cuda.synchronize()
        t2 = time.perf_counter()
        best_rec = min(best_rec, (t1 - t0) / K)
        best_e2e = min(best_e2e, (t2 - t0) / K)
    ref = chain(v0.cpu())  # the same float32 ops on the CPU
    if not close(r.cpu(), ref, 1e-4):
        fail("dependent chain result wrong")
    out["tiny_e2e_us"] = best_e2e * 1e6
    out["tiny_record_us"] = best_rec * 1e6
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        chain(v0)
    torch.cuda.current_stream().wait_stream(s)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        gr = chain(v0)
    graph.replay()
    torch.cuda.synchronize()
    best = float("inf")
    for _ in range(runs):
        st, en = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        st.record()
        graph.replay()
        en.record()
        en.synchronize()
        best = min(best, st.elapsed_time(en) / 1e3 / K)
    if not close(gr.cpu(), ref, 1e-4):
        fail("graph chain result wrong")
    out["tiny_graph_us"] = best * 1e6
    out["tiny_gpu_us"] = out["tiny_unfused_gpu_us"] = out["tiny_graph_us"]
    out["tiny_unfused_e2e_us"] = out["tiny_e2e_us"]
    emit(out)


if __name__ == "__main__":
    main()
