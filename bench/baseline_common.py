"""baseline_common.py - what the PyTorch baseline scripts (bench/baseline_<suite>.py) share.

Each script imports this module from its own folder (it puts that folder on sys.path first), so
`python3 bench/baseline_X.py` works from any directory.  The contract with bench/common.c
(bench_torch_baseline): the last line of stdout that starts with '{' is one JSON object, either
the figures (with "torch" and "device") or {"error": reason} with exit status 1.
"""
import json
import sys
import time


def fail(msg):
    """Prints {"error": msg} and exits with status 1."""
    print(json.dumps({"error": msg}))
    sys.exit(1)


def emit(out):
    """Prints the figures as the one JSON line."""
    print(json.dumps(out))


def load_torch():
    """Imports torch, or fails when it is missing or CUDA is not available."""
    try:
        import torch
    except Exception as e:  # ImportError, or a broken install
        fail("PyTorch not importable: %s" % e)
    if not torch.cuda.is_available():
        fail("torch.cuda.is_available() is False (torch %s)" % torch.__version__)
    return torch


def header(torch):
    """The "torch" (version) and "device" (name of GPU 0) keys every result carries."""
    return {"torch": torch.__version__, "device": torch.cuda.get_device_name(0)}


def per_call(torch, fn, reps, runs):
    """Seconds per call of fn: reps back-to-back calls between two CUDA events, best of runs after
    a warm-up of reps calls, repeated for 0.3 s (the GPU's clocks, as bench_time_op in
    bench/common.c); outputs stay alive until the end event, as ours do."""
    t0 = None
    while t0 is None or time.monotonic() - t0 < 0.3:
        keep = [fn() for _ in range(reps)]
        del keep
        torch.cuda.synchronize()
        t0 = time.monotonic() if t0 is None else t0
    best = float("inf")
    for _ in range(runs):
        s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        s.record()
        keep = [fn() for _ in range(reps)]
        e.record()
        e.synchronize()
        del keep
        best = min(best, s.elapsed_time(e) / 1e3 / reps)
    return best


def start(runs, seed):
    """The start every suite's script shares: torch with TF32 off for cuBLAS and cuDNN (f32 figures
    are true f32), the CUDA device, the result dict with its header keys, a generator seeded with
    seed on that device, and timed(fn, reps): seconds per call, best of max(1, runs)."""
    torch = load_torch()
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    dev = torch.device("cuda")
    g = torch.Generator(device=dev)
    g.manual_seed(seed)
    runs = max(1, runs)

    def timed(fn, reps):
        return per_call(torch, fn, reps, runs)

    return torch, dev, header(torch), g, timed
