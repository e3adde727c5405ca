#!/usr/bin/env python3
"""tint_diff.py - differential test of `wgc check` against Tint over every .wgsl file in the repo.

Usage: python3 tests/oracle/tint_diff.py --tint TINT_CHECK_MJS --pkg WEBGPU_DIR --wgc WGC
                                         [--allow ALLOWLIST] [--verbose] [FILE...]

Files: the arguments, else every tracked .wgsl file (git ls-files) plus untracked, not ignored
.wgsl files under tests/ and src/.  Tint runs once over all of them (tint-check.mjs --list; its
startup is slow); wgc runs once per file (`wgc check --json FILE`, so a crash or hang costs
one file, not the run).  For each file the verdicts must agree (accepted by both, or rejected
by both) and, when both reject, the line of the first error must be the same.  A file where
Tint itself crashes counts as a disagreement.

The allow-list has one line per genuine, explained deviation:  PATH  REASON...  ('#' comments).
A listed file that disagrees passes; a listed file that now agrees fails the run too ("stale"),
so the list only ever holds live deviations.  A line without a reason is an error.
Prints one line per disagreement, then counts; exit 1 on any unlisted disagreement.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile


def repo_files():
    tracked = subprocess.run(["git", "ls-files", "*.wgsl"], capture_output=True, text=True,
                             check=True).stdout.split()
    untracked = subprocess.run(["git", "ls-files", "--others", "--exclude-standard", "--",
                                "tests", "src"], capture_output=True, text=True,
                               check=True).stdout.split()
    files = set(tracked) | {f for f in untracked if f.endswith(".wgsl")}
    return sorted(f for f in files if os.path.isfile(f))


def read_allow(path):
    allow, errors = {}, []
    if not path or not os.path.exists(path):
        return allow, errors
    for n, line in enumerate(open(path, encoding="utf-8"), 1):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        parts = line.split(None, 1)
        if len(parts) < 2:
            errors.append("%s:%d: '%s' has no reason" % (path, n, parts[0]))
            continue
        allow[parts[0]] = parts[1]
    return allow, errors


def run_tint(tint, pkg, files, unsafe=False):
    if not files:
        return {}
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as lst:
        lst.write("\n".join(files) + "\n")
    try:
        p = subprocess.run(["node", tint, "--pkg", pkg, "--quiet-info"] + (["--unsafe"] if unsafe else []) +
                           ["--list", lst.name],
                           capture_output=True, text=True)
    finally:
        os.unlink(lst.name)
    if p.returncode not in (0, 1):
        sys.exit("tint_diff: tint-check failed (exit %d): %s" % (p.returncode, p.stderr.strip()))
    out = {}
    for line in p.stdout.splitlines():
        if line.startswith("{"):
            r = json.loads(line)
            out[r.get("file", files[0])] = r
    return out


def one_line(msg):
    """First line of a message (Tint's overload errors list the candidates on further lines)."""
    return (msg or "").split("\n", 1)[0]


def first_error_line(messages, key_type):
    for m in messages:
        if m.get(key_type) == "error":
            return m.get("line")
    return None


def run_wgc(wgc, f):
    try:
        p = subprocess.run([wgc, "check", "--json", f], capture_output=True, text=True, timeout=20)
    except subprocess.TimeoutExpired:
        return {"crash": "timeout after 20s"}
    except OSError as e:  # e.g. the binary is being relinked right now
        return {"crash": "cannot run %s: %s" % (wgc, e)}
    if p.returncode not in (0, 1):
        return {"crash": "exit %d: %s" % (p.returncode, (p.stderr or p.stdout).strip()[:200])}
    try:
        doc = json.loads(p.stdout)
        r = doc["files"][0]
    except (ValueError, KeyError, IndexError) as e:
        return {"crash": "bad JSON (%s): %s" % (e, p.stdout[:200])}
    return {"ok": bool(r.get("ok")), "line": first_error_line(r.get("diagnostics", []), "severity"),
            "msg": next((d.get("message") for d in r.get("diagnostics", [])
                         if d.get("severity") == "error"), None)}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tint", required=True)
    ap.add_argument("--pkg", required=True)
    ap.add_argument("--wgc", required=True)
    ap.add_argument("--allow", default="")
    ap.add_argument("--verbose", action="store_true")
    ap.add_argument("files", nargs="*")
    a = ap.parse_args()
    files = a.files or repo_files()
    if not files:
        sys.exit("tint_diff: no .wgsl files")
    allow, errors = read_allow(a.allow)
    # wgc accepts chromium_experimental_subgroup_matrix (the runtime checks the device); Tint only
    # with allow_unsafe_apis, so files that enable it go through Tint with --unsafe
    unsafe = [f for f in files
              if "enable chromium_experimental_subgroup_matrix" in open(f, encoding="utf-8", errors="replace").read()]
    tint = run_tint(a.tint, a.pkg, [f for f in files if f not in unsafe])
    tint.update(run_tint(a.tint, a.pkg, unsafe, True))
    counts = {"agree": 0, "tint_only_ok": 0, "wgc_only_ok": 0, "line": 0, "crash": 0,
              "allowed": 0, "stale": 0}
    bad = []
    for f in files:
        t = tint.get(f)
        w = run_wgc(a.wgc, f)
        if t is None or t.get("ok") is None:
            kind, why = "crash", "tint: %s" % ((t or {}).get("crash") or "no result")
        elif "crash" in w:
            kind, why = "crash", "wgc: %s" % w["crash"]
        elif t["ok"] != w["ok"]:
            tmsg = next((m for m in t["messages"] if m["type"] == "error"), None)
            if t["ok"]:
                kind, why = "tint_only_ok", "Tint accepts; wgc: %s: %s" % (w["line"], one_line(w["msg"]))
            else:
                kind, why = "wgc_only_ok", "wgc accepts; Tint: %s: %s" % (tmsg["line"], one_line(tmsg["message"]))
        elif not t["ok"]:
            tline = first_error_line(t["messages"], "type")
            tmsg = next(m["message"] for m in t["messages"] if m["type"] == "error")
            if tline != w["line"]:
                kind = "line"
                why = "first error line: Tint %s (%s), wgc %s (%s)" % (tline, one_line(tmsg), w["line"], one_line(w["msg"]))
            else:
                kind = None
        else:
            kind = None
        if kind is None:
            if f in allow:
                counts["stale"] += 1
                bad.append("STALE      %s: agrees now; remove it from the allow-list" % f)
            else:
                counts["agree"] += 1
            continue
        counts[kind] += 1
        if f in allow:
            counts["allowed"] += 1
            if a.verbose:
                print("allowed    %s: %s [%s]" % (f, why, allow[f]))
        else:
            bad.append("%-10s %s: %s" % (kind.upper(), f, why))
    for line in errors + bad:
        print(line)
    print("tint_diff: %d files, %d agree; disagreements: %d Tint-only-accepts, %d wgc-only-accepts, "
          "%d first-error-line, %d crashes (%d of them allow-listed); %d stale allow entries"
          % (len(files), counts["agree"], counts["tint_only_ok"], counts["wgc_only_ok"],
             counts["line"], counts["crash"], counts["allowed"], counts["stale"]))
    unlisted = counts["tint_only_ok"] + counts["wgc_only_ok"] + counts["line"] + counts["crash"] \
        - counts["allowed"]
    return 1 if (unlisted or counts["stale"] or errors) else 0


if __name__ == "__main__":
    sys.exit(main())
