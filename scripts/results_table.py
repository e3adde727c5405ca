#!/usr/bin/env python3
"""results_table.py - Markdown tables of `wgc bench <suite> --json` files (doc/bench.md's H200 section).

Usage: python3 scripts/results_table.py DIR [SUITE ...]
Reads DIR/<suite>.json for each suite (default: runtime ops nn llm, those that exist) and prints,
per suite, a heading with the size line and one table row per bench row: wgc's figure, each
baseline's figure with its ratio (how many times better wgc is), the target and whether it was
met.  Missing figures print as "-".  Exit 1 when DIR holds none of the files.
"""
import json
import os
import sys


def fmt(v):
    if v is None:
        return "–"
    a = abs(v)
    if a >= 100:
        return "%.0f" % v
    if a >= 10:
        return "%.1f" % v
    if a >= 1:
        return "%.2f" % v
    return "%.3g" % v


def table(path, suite):
    d = json.load(open(path))
    names = [b["name"] for b in d.get("baselines", []) if b.get("ran")]
    info = d.get("info", {})
    print("**%s** (`%s.json`; %s)\n" % (suite, suite, info.get("size", "")))
    head = ["row", "unit", "wgc"] + ["%s (ratio)" % n for n in names] + ["target", "met"]
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    for r in d["rows"]:
        cells = [r["name"], r.get("unit", ""), fmt(r.get("wgc"))]
        for n in names:
            b = r.get("baselines", {}).get(n) or {}
            v = b.get("value")
            cells.append("–" if v is None else "%s (x%.2f)" % (fmt(v), b.get("ratio") or 0))
        t = r.get("target")
        rel = "≥" if r.get("better", "higher") == "higher" else "≤"
        cells.append("–" if t is None else "%s %s" % (rel, fmt(t)))
        met = r.get("targetMet", r.get("target_met"))   # target_met: files written before the rename
        cells.append("–" if met is None or t is None else ("yes" if met else "**no**"))
        print("| " + " | ".join(cells) + " |")
    print()


def main():
    if len(sys.argv) < 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    folder = sys.argv[1]
    suites = sys.argv[2:] or ["runtime", "ops", "nn", "llm"]
    done = 0
    for s in suites:
        p = os.path.join(folder, s + ".json")
        if os.path.exists(p):
            table(p, s)
            done += 1
    if not done:
        print("results_table.py: no <suite>.json in %s" % folder, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
