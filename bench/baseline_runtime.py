#!/usr/bin/env python3
"""baseline_runtime.py - the PyTorch/CUDA baseline of `wgc bench runtime`, measured in the same run.

Usage: python3 bench/baseline_runtime.py [--n FLOATS] [--ops K] [--runs R] [--roundtrips M]
Prints one JSON line on stdout:
  {"torch": version, "device": name, "n": n,
   "add_GBps":      torch.add(a, b, out=c) on n f32, CUDA events, 3*4n bytes, best of R
   "copy_GBps":     dst.copy_(src) device->device, n f32, CUDA events, 2*4n bytes, best of R
   "tiny_eager_us": K dependent x.add_(1) on 1024 f32 + synchronize, wall / K, best of R
   "tiny_graph_us": the same K adds captured in a CUDA graph, replay timed with events / K
   "sync_us_mean", "sync_us_min": one tiny add + torch.cuda.synchronize(), M times (wall)
   "upload_GBps", "readback_GBps": pinned host <-> device copy of 4n bytes + synchronize (wall)}
or {"error": reason} with exit status 1 when torch or CUDA is missing.  Every result is checked
against the expected values; a mismatch is an error too.  Inputs are random (never zeros).
"""
import argparse
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from baseline_common import emit, fail, header, load_torch  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=1 << 26)
    ap.add_argument("--ops", type=int, default=1000)
    ap.add_argument("--runs", type=int, default=10)
    ap.add_argument("--roundtrips", type=int, default=200)
    a = ap.parse_args()
    torch = load_torch()
    torch.backends.cuda.matmul.allow_tf32 = False
    dev = torch.device("cuda")
    n, runs = a.n, max(1, a.runs)
    out = header(torch)
    out["n"] = n

    def events_best(fn):
        fn()
        torch.cuda.synchronize()
        best = float("inf")
        for _ in range(runs):
            s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            s.record()
            fn()
            e.record()
            e.synchronize()
            best = min(best, s.elapsed_time(e) / 1e3)
        return best

    def wall_best(fn):
        fn()
        torch.cuda.synchronize()
        best = float("inf")
        for _ in range(runs):
            t0 = time.perf_counter()
            fn()
            torch.cuda.synchronize()
            best = min(best, time.perf_counter() - t0)
        return best

    # add and copy
    x = torch.rand(n, device=dev) + 0.5
    y = torch.rand(n, device=dev) - 2.0
    z = torch.empty(n, device=dev)
    t = events_best(lambda: torch.add(x, y, out=z))
    if not torch.equal(z, x + y):
        fail("add result wrong")
    out["add_GBps"] = 3 * 4 * n / t / 1e9
    t = events_best(lambda: z.copy_(x))
    if not torch.equal(z, x):
        fail("copy result wrong")
    out["copy_GBps"] = 2 * 4 * n / t / 1e9

    # tiny dependent ops
    K = max(1, a.ops)
    v = torch.randint(1, 1000, (1024,), device=dev).float()  # integers: every add is exact
    start = v.clone()

    def chain():
        for _ in range(K):
            v.add_(1.0)

    t = wall_best(chain)
    out["tiny_eager_us"] = t / K * 1e6
    done = K * (runs + 1)
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        chain()  # warm-up on the capture stream
    torch.cuda.current_stream().wait_stream(s)
    done += K
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        chain()
    t = events_best(g.replay)
    out["tiny_graph_us"] = t / K * 1e6
    done += K * (runs + 1)
    torch.cuda.synchronize()
    if not torch.equal(v, start + float(done)):
        fail("dependent chain result wrong")

    # submit + wait round trips
    R = max(1, a.roundtrips)
    ts = []
    for i in range(R + 5):
        t0 = time.perf_counter()
        v.add_(1.0)
        torch.cuda.synchronize()
        if i >= 5:
            ts.append((time.perf_counter() - t0) * 1e6)
    out["sync_us_mean"] = sum(ts) / len(ts)
    out["sync_us_min"] = min(ts)

    # upload / readback through pinned memory
    h = torch.rand(n, pin_memory=True)
    h.add_(0.25)  # in place: `h + 0.25` would be a new, pageable tensor
    if not h.is_pinned():
        fail("host tensor is not pinned")
    d = torch.empty(n, device=dev)
    t = wall_best(lambda: d.copy_(h, non_blocking=True))
    if not torch.equal(d.cpu(), h):
        fail("upload result wrong")
    out["upload_GBps"] = 4 * n / t / 1e9
    hb = torch.empty(n, pin_memory=True)
    t = wall_best(lambda: hb.copy_(d, non_blocking=True))
    if not torch.equal(hb, h):
        fail("readback result wrong")
    out["readback_GBps"] = 4 * n / t / 1e9
    emit(out)


if __name__ == "__main__":
    main()
