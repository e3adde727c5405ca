#!/usr/bin/env python3
"""syntax_diff.py - differential test of the parser against Tint on deterministic mutants.

Usage: python3 tests/wgsl/syntax_diff.py --tint TINT_CHECK_MJS --pkg WEBGPU_DIR --wgc WGC
                                         [--count N] [--seed S] [--keep DIR]
(--keep DIR writes the mutants there and leaves them; otherwise a temporary directory is removed)

Mutants: each a valid golden file (tests/wgsl/golden/*.wgsl without .err) with one or two small
edits (a span deleted, a token inserted, a character duplicated); same seed and same files give
the same mutants.  Every mutant goes through `wgc check --parse-only --json` and through Tint
(tint-check.mjs, one node process for all).  Whenever our parser reports an error, Tint must
report exactly that first error: same line, column and first message line.  (When our parser
accepts, Tint may still reject for a semantic reason; those mutants only count as compared.)
A crash or malformed output of wgc fails too.  Prints each disagreement and a summary line.
"""
import argparse
import glob
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile

TOKENS = ["(", ")", "{", "}", "[", "]", "<", ">", ">>", ";", ",", ":", "=", "==", ".", "@", "-", "--",
          "&", "&&", "|", "fn", "var", "let", "if", "else", "loop", "continuing", "break", "return",
          "0x", "1e", "1.5f", "_", "a", "vec3<f32>", "array<", "/*", "*/", "//", "\n", " ", "switch",
          "case", "default", "->", "1u", "0x1p3f", ".5", "struct", "alias", "const", "override",
          "enable", "requires", "diagnostic", "while", "for", "++", "+=", ">>=", "!", "~", "%"]


def mutate(rng, text):
    s = list(text)
    for _ in range(rng.randint(1, 2)):
        k = rng.randint(0, 3)
        at = rng.randint(0, len(s))
        if k == 0 and s:
            del s[min(at, len(s) - 1)]
        elif k == 1:
            s[at:at] = list(rng.choice(TOKENS))
        elif k == 2:
            del s[at:at + rng.randint(1, 6)]
        elif s:
            s[at:at] = s[min(at, len(s) - 1)]
    return "".join(s)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tint", required=True)
    ap.add_argument("--pkg", required=True)
    ap.add_argument("--wgc", required=True)
    ap.add_argument("--count", type=int, default=400)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--keep")
    a = ap.parse_args()
    seeds = sorted(f for f in glob.glob("tests/wgsl/golden/*.wgsl")
                   if not os.path.exists(f[:-5] + ".err") and os.path.getsize(f) < 20000)
    if len(seeds) < 50:
        print("syntax_diff: only %d valid golden files to mutate" % len(seeds))
        return 1
    rng = random.Random(a.seed)
    out = a.keep or tempfile.mkdtemp(prefix="syntax-diff-")
    os.makedirs(out, exist_ok=True)
    files = []
    for i in range(a.count):
        src = rng.choice(seeds)
        with open(src, encoding="utf-8") as f:
            text = f.read()
        path = os.path.join(out, "mut-%04d.wgsl" % i)
        with open(path, "w", encoding="utf-8") as f:
            f.write(mutate(rng, text))
        files.append(path)
    env = dict(os.environ, WEBGPU_PKG=a.pkg)
    r = subprocess.run(["node", a.tint, "--timeout", "30"] + files, capture_output=True, text=True, env=env)
    tint = {}
    for line in r.stdout.splitlines():
        try:
            o = json.loads(line)
        except ValueError:
            continue
        tint[o.get("file", files[0])] = o
    if len(tint) < len(files) * 9 // 10:
        print("syntax_diff: Tint answered for %d of %d files: %s" % (len(tint), len(files), r.stderr[-500:]))
        if not a.keep:
            shutil.rmtree(out, ignore_errors=True)
        return 1
    bad = compared = rejected = 0
    for path in files:
        o = tint.get(path)
        if not o or o.get("ok") is None:
            continue
        compared += 1
        w = subprocess.run([a.wgc, "check", "--parse-only", "--json", path], capture_output=True, text=True)
        try:
            d = json.loads(w.stdout)["files"][0]
        except (ValueError, KeyError, IndexError):
            bad += 1
            print("%s: wgc exit %d, output not JSON: %s" % (path, w.returncode, w.stdout[:200]))
            continue
        if d["ok"]:
            continue
        rejected += 1
        mine = [x for x in d["diagnostics"] if x["severity"] == "error"][0]
        errs = [x for x in o.get("messages", []) if x["type"] == "error"]
        theirs = errs[0] if errs else None
        m = "%d:%d %s" % (mine["line"], mine["col"], mine["message"].split("\n")[0])
        t = "%d:%d %s" % (theirs["line"], theirs["col"], theirs["message"].split("\n")[0]) if theirs else "accepted"
        if m != t:
            bad += 1
            with open(path, encoding="utf-8", errors="replace") as f:
                head = f.read()[:160]
            print("%s\n  wgc:  %s\n  tint: %s\n  src:  %r" % (path, m, t, head))
    print("syntax_diff: %d mutants compared, %d rejected by our parser, %d disagreements" % (compared, rejected, bad))
    if not a.keep:
        shutil.rmtree(out, ignore_errors=True)
    return 1 if bad or compared < len(files) * 9 // 10 else 0


if __name__ == "__main__":
    sys.exit(main())
