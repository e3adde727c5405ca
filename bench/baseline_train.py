#!/usr/bin/env python3
"""baseline_train.py - the PyTorch/CUDA baseline of `wgc bench train`, measured in the same run.

Usage: python3 bench/baseline_train.py [--cnn-batch N] [--gpt L,C,H,T,B,V] [--runs RUNS]
The same models, shapes and optimizers as bench/train.c (defined once more below, in
torch.nn.functional, as cnn_loss and gpt_loss; bench/agree_train.py imports them), eager, TF32
off.  A step is zero_grad(set_to_none), forward, loss, backward, optimizer step; each timed step
sits between two CUDA events, best of RUNS steps after 0.3 s (and at least two steps) of warm-up.
Prints one JSON line on stdout whose keys are bench/train.c's row keys:
  {"torch": version, "device": name,
   "cnn_step_ms":     digits CNN, batch N, f32, SGD(lr 0.05, momentum 0.9)
   "cnn_peak_MiB":    torch.cuda.max_memory_allocated over the timed steps (peak reset after the
                      warm-up), in MiB
   "gpt_step_ms":     the GPT, f32, AdamW(lr 1e-3, weight_decay 0.1)
   "gpt_peak_MiB":    as cnn_peak_MiB
   "gpt_amp_step_ms": the GPT under torch.autocast("cuda", float16) with a GradScaler (f32
                      master weights)
   "gpt_amp_peak_MiB",
   "cnn_amp_step_ms": the digits CNN under torch.autocast("cuda", float16) with a GradScaler}
or {"error": reason} with exit status 1 when torch or CUDA is missing.  A non-finite loss is an
error too.
"""
import argparse
import math
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from baseline_common import emit, fail, start  # noqa: E402

CNN_LR, CNN_MOMENTUM = 0.05, 0.9
GPT_LR, GPT_WD = 1e-3, 0.1


def cnn_shapes():
    """The CNN's parameters in bench/train.c's order."""
    return [(16, 1, 3, 3), (16,), (32, 16, 3, 3), (32,), (10, 128), (10,)]


def gpt_shapes(L, C, T, V):
    """The GPT's parameters in bench/train.c's order, each with its initialisation (normal 0.02,
    zeros, ones)."""
    out = [((V, C), "normal"), ((T, C), "normal")]
    for _ in range(L):
        out += [((C,), "ones"), ((C,), "zeros"), ((3 * C, C), "normal"), ((3 * C,), "zeros"),
                ((C, C), "normal"), ((C,), "zeros"), ((C,), "ones"), ((C,), "zeros"),
                ((4 * C, C), "normal"), ((4 * C,), "zeros"), ((C, 4 * C), "normal"), ((C,), "zeros")]
    return out + [((C,), "ones"), ((C,), "zeros")]


def cnn_loss(F, p, x, y):
    """Mean cross-entropy of the digits CNN on x [N, 1, 8, 8], y [N] (int64)."""
    h = F.max_pool2d(F.relu(F.conv2d(x, p[0], p[1], padding=1)), 2)
    h = F.max_pool2d(F.relu(F.conv2d(h, p[2], p[3], padding=1)), 2)
    return F.cross_entropy(F.linear(h.reshape(h.shape[0], 128), p[4], p[5]), y)


def gpt_loss(torch, F, p, L, C, H, idx, tgt):
    """Mean cross-entropy of the pre-LN GPT (tied head) on idx, tgt [B, T] (int64)."""
    B, T = idx.shape
    pos = torch.arange(T, device=idx.device)
    x = F.embedding(idx, p[0]) + F.embedding(pos, p[1])
    for l in range(L):
        q = p[2 + 12 * l: 14 + 12 * l]
        h = F.layer_norm(x, (C,), q[0], q[1], 1e-5)
        qkv = F.linear(h, q[2], q[3]).view(B, T, 3, H, C // H)
        qh, kh, vh = (qkv[:, :, i].transpose(1, 2) for i in range(3))
        a = F.scaled_dot_product_attention(qh, kh, vh, is_causal=True)
        x = x + F.linear(a.transpose(1, 2).reshape(B, T, C), q[4], q[5])
        h = F.layer_norm(x, (C,), q[6], q[7], 1e-5)
        x = x + F.linear(F.gelu(F.linear(h, q[8], q[9])), q[10], q[11])
    x = F.layer_norm(x, (C,), p[-2], p[-1], 1e-5)
    logits = F.linear(x, p[0])
    return F.cross_entropy(logits.reshape(B * T, -1).float(), tgt.reshape(B * T))


def time_steps(torch, step, runs):
    """Best seconds per step (CUDA events) after the warm-up, and the peak bytes of the timed steps."""
    t0, n = None, 0
    while n < 2 or time.monotonic() - t0 < 0.3:
        loss = step()
        torch.cuda.synchronize()
        if not math.isfinite(loss.item()):
            fail("non-finite loss %r in the warm-up" % loss.item())
        t0 = time.monotonic() if t0 is None else t0
        n += 1
    torch.cuda.reset_peak_memory_stats()
    best = float("inf")
    for _ in range(max(1, runs)):
        s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        s.record()
        loss = step()
        e.record()
        e.synchronize()
        best = min(best, s.elapsed_time(e) / 1e3)
    if not math.isfinite(loss.item()):
        fail("non-finite loss %r" % loss.item())
    return best, torch.cuda.max_memory_allocated()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cnn-batch", type=int, default=512)
    ap.add_argument("--gpt", default="12,768,12,512,8,50257")
    ap.add_argument("--runs", type=int, default=10)
    a = ap.parse_args()
    torch, dev, out, g, _ = start(a.runs, 1234)
    import torch.nn.functional as F

    MiB = 1024.0 * 1024.0
    N = a.cnn_batch
    for amp in (False, True):
        p = [(torch.randn(s, device=dev, generator=g) * 0.2).requires_grad_() for s in cnn_shapes()]
        x = torch.randn(N, 1, 8, 8, device=dev, generator=g)
        y = torch.randint(0, 10, (N,), device=dev, generator=g)
        opt = torch.optim.SGD(p, lr=CNN_LR, momentum=CNN_MOMENTUM)
        scaler = torch.amp.GradScaler("cuda") if amp else None

        def cnn_step():
            opt.zero_grad(set_to_none=True)
            if amp:
                with torch.autocast("cuda", dtype=torch.float16):
                    loss = cnn_loss(F, p, x, y)
                scaler.scale(loss).backward()
                scaler.step(opt)
                scaler.update()
            else:
                loss = cnn_loss(F, p, x, y)
                loss.backward()
                opt.step()
            return loss.detach()

        t, peak = time_steps(torch, cnn_step, a.runs)
        if amp:
            out["cnn_amp_step_ms"] = t * 1e3
        else:
            out["cnn_step_ms"], out["cnn_peak_MiB"] = t * 1e3, peak / MiB
        del p, x, y, opt, scaler, cnn_step

    L, C, H, T, B, V = [int(v) for v in a.gpt.split(",")]
    for amp in (False, True):
        torch.cuda.empty_cache()
        p = []
        for s, init in gpt_shapes(L, C, T, V):
            t_ = (torch.randn(s, device=dev, generator=g) * 0.02 if init == "normal" else
                  torch.zeros(s, device=dev) if init == "zeros" else torch.ones(s, device=dev))
            p.append(t_.requires_grad_())
        idx = torch.randint(0, V, (B, T), device=dev, generator=g)
        tgt = torch.randint(0, V, (B, T), device=dev, generator=g)
        opt = torch.optim.AdamW(p, lr=GPT_LR, weight_decay=GPT_WD)
        scaler = torch.amp.GradScaler("cuda") if amp else None

        def gpt_step():
            opt.zero_grad(set_to_none=True)
            if amp:
                with torch.autocast("cuda", dtype=torch.float16):
                    loss = gpt_loss(torch, F, p, L, C, H, idx, tgt)
                scaler.scale(loss).backward()
                scaler.step(opt)
                scaler.update()
            else:
                loss = gpt_loss(torch, F, p, L, C, H, idx, tgt)
                loss.backward()
                opt.step()
            return loss.detach()

        t, peak = time_steps(torch, gpt_step, a.runs)
        key = "gpt_amp" if amp else "gpt"
        out[key + "_step_ms"], out[key + "_peak_MiB"] = t * 1e3, peak / MiB
        del p, idx, tgt, opt, scaler, gpt_step
    emit(out)


if __name__ == "__main__":
    main()
