#!/usr/bin/env python3
"""agree_train.py - trains in PyTorch what `wgc bench train --agree DIR` trained with wt, from the
same initial weights on the same batches, and compares the losses step by step (issue 19's proof).

Usage: python3 bench/agree_train.py DIR [--device cuda|cpu] [--tol 1e-4] [--json FILE]
DIR holds meta.json, cnn/ and gpt/ (initial parameters pNNN.npy in bench/train.c's order, the
batches, wt's losses.txt).  The models are bench/baseline_train.py's cnn_loss and gpt_loss (the
same definitions as bench/train.c); the optimizers torch.optim.SGD(lr, momentum) and
torch.optim.AdamW(lr, betas, eps, weight_decay) with foreach=False (the single-tensor formulas
wt's optimizers follow), f32 throughout, TF32 off.  Prints one line per step (wt's loss,
torch's, relative difference |wt - torch| / |torch|), then per model the largest relative
difference and the verdict against --tol, and last one JSON line with everything.  Exit status
0 when both models agree within --tol, 1 when one does not, 2 on an error.
"""
import argparse
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from baseline_train import cnn_loss, cnn_shapes, gpt_loss, gpt_shapes  # noqa: E402


def load_params(torch, np, d, shapes, dev):
    ps = []
    for i, s in enumerate(shapes):
        a = np.load(os.path.join(d, "p%03d.npy" % i))
        if tuple(a.shape) != tuple(s) or a.dtype != np.float32:
            raise SystemExit("agree_train: %s/p%03d.npy is %s %s, expected float32 %s" % (d, i, a.dtype, a.shape, s))
        ps.append(torch.from_numpy(a).to(dev).requires_grad_())
    return ps


def wt_losses(d, steps):
    with open(os.path.join(d, "losses.txt")) as f:
        v = [float(line) for line in f if line.strip()]
    if len(v) != steps:
        raise SystemExit("agree_train: %s/losses.txt has %d losses, meta.json says %d steps" % (d, len(v), steps))
    return v


def compare(name, ours, theirs, tol, every):
    rel = [abs(a - b) / max(abs(b), 1e-30) for a, b in zip(ours, theirs)]
    print("%s: step  wt loss        torch loss     rel diff" % name)
    for i, (a, b, r) in enumerate(zip(ours, theirs, rel)):
        if i % every == 0 or i == len(rel) - 1 or r > tol:
            print("%s  %4d  %.9f  %.9f  %.3e%s" % (name, i + 1, a, b, r, "  > tol" if r > tol else ""))
    worst = max(range(len(rel)), key=lambda i: rel[i])
    ok = rel[worst] <= tol
    print("%s: %d steps, largest relative difference %.3e at step %d (tolerance %.0e): %s" %
          (name, len(rel), rel[worst], worst + 1, tol, "AGREE" if ok else "DIFFER"))
    return ok, {"steps": len(rel), "max_rel": rel[worst], "max_rel_step": worst + 1, "ok": ok,
                "wt": ours, "torch": theirs, "rel": rel}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dir")
    ap.add_argument("--device", default=None)
    ap.add_argument("--tol", type=float, default=1e-4)
    ap.add_argument("--json", default=None)
    a = ap.parse_args()
    import numpy as np
    try:
        import torch
        import torch.nn.functional as F
    except Exception as e:
        print("agree_train: PyTorch not importable: %s" % e)
        return 2
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    dev = torch.device(a.device or ("cuda" if torch.cuda.is_available() else "cpu"))
    meta = json.load(open(os.path.join(a.dir, "meta.json")))
    where = torch.cuda.get_device_name(0) if dev.type == "cuda" else "CPU"
    print("agree_train: PyTorch %s on %s, f32, TF32 off" % (torch.__version__, where))
    result = {"torch": torch.__version__, "device": where}

    c = meta["cnn"]
    d = os.path.join(a.dir, "cnn")
    p = load_params(torch, np, d, cnn_shapes(), dev)
    x = torch.from_numpy(np.load(os.path.join(d, "x.npy"))).to(dev)
    y = torch.from_numpy(np.load(os.path.join(d, "y.npy"))).to(dev).long()
    opt = torch.optim.SGD(p, lr=c["lr"], momentum=c["momentum"], foreach=False)
    theirs = []
    for s in range(c["steps"]):
        opt.zero_grad(set_to_none=True)
        loss = cnn_loss(F, p, x[s], y[s])
        loss.backward()
        opt.step()
        theirs.append(loss.item())
    print("cnn: digits CNN, batch %d, SGD lr %g momentum %g, data: %s" % (c["batch"], c["lr"], c["momentum"], c["data"]))
    ok1, result["cnn"] = compare("cnn", wt_losses(d, c["steps"]), theirs, a.tol, 1)

    g = meta["gpt"]
    d = os.path.join(a.dir, "gpt")
    L, C, H, T, V = g["layers"], g["width"], g["heads"], g["seq"], g["vocab"]
    p = load_params(torch, np, d, [s for s, _ in gpt_shapes(L, C, T, V)], dev)
    tok = torch.from_numpy(np.load(os.path.join(d, "tokens.npy"))).to(dev).long()
    opt = torch.optim.AdamW(p, lr=g["lr"], betas=tuple(g["betas"]), eps=g["eps"], weight_decay=g["weight_decay"],
                            foreach=False)
    theirs = []
    for s in range(g["steps"]):
        opt.zero_grad(set_to_none=True)
        loss = gpt_loss(torch, F, p, L, C, H, tok[s, :, :-1], tok[s, :, 1:])
        loss.backward()
        opt.step()
        theirs.append(loss.item())
    print("gpt: character-level GPT L%d C%d H%d T%d B%d, vocabulary %d (%s), AdamW lr %g weight decay %g" %
          (L, C, H, T, g["batch"], V, g["text"], g["lr"], g["weight_decay"]))
    ok2, result["gpt"] = compare("gpt", wt_losses(d, g["steps"]), theirs, a.tol, 10)
    result["ok"] = ok1 and ok2
    print("agree_train: %s" % ("both models agree" if result["ok"] else "DISAGREEMENT"))
    if a.json:
        with open(a.json, "w") as f:
            json.dump(result, f)
    print(json.dumps({k: (v if not isinstance(v, dict) else {kk: vv for kk, vv in v.items() if kk not in
                                                          ("wt", "torch", "rel")}) for k, v in result.items()}))
    return 0 if result["ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
