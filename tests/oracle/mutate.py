#!/usr/bin/env python3
"""mutate.py - make small, deterministic mutants of WGSL files for differential checking of
`wgc check` against Tint (tests/oracle/tint_diff.sh FILES...): mostly invalid programs, some
still valid, each differing from a real kernel by one edit.

Usage: python3 tests/oracle/mutate.py [--seed S] [--count N] --out DIR FILE.wgsl...
Writes DIR/mut-NNNN.wgsl (N files, default 200), each starting with a comment naming its source
and the edit, and prints their paths.  Edits (one per mutant, at a random place past the spec
comments): delete a token, duplicate a token, swap two adjacent tokens, change a type name,
change a literal suffix, change an operator, drop a semicolon or brace, rename an identifier
use, or insert a keyword.  Standard library only; same seed, same files.
Example: python3 tests/oracle/mutate.py --out build/mut tests/parity/*.wgsl |
         xargs sh tests/oracle/tint_diff.sh
"""
import argparse
import os
import random
import re

TOKEN = re.compile(r"0[xX][0-9a-fA-F.]+(?:[pP][+-]?\d+)?[fhiu]?|\d+\.?\d*(?:[eE][+-]?\d+)?[fhiu]?"
                   r"|[A-Za-z_][A-Za-z0-9_]*|<<=|>>=|&&|\|\||<=|>=|==|!=|->|<<|>>|\+\+|--|[-+*/%&|^!~<>=(){}\[\];:,.@]")
TYPES = ["u32", "i32", "f32", "f16", "bool", "vec2u", "vec3f", "vec4i", "mat2x2f", "array<u32, 4>",
         "atomic<u32>", "ptr<function, u32>"]
OPS = ["+", "-", "*", "/", "%", "&", "|", "^", "<<", ">>", "&&", "||", "<", "==", "!="]
KEYWORDS = ["let", "var", "const", "override", "fn", "return", "break", "continue", "loop", "if",
            "else", "switch", "case", "default", "for", "while", "struct", "enable", "discard",
            "continuing", "_", "workgroupBarrier()", "alias", "const_assert"]


def body_start(text):
    """Offset just past the leading comment block (the spec), so mutants keep a valid spec."""
    off = 0
    for line in text.splitlines(keepends=True):
        if line.strip() and not line.strip().startswith("//"):
            break
        off += len(line)
    return off


def mutate(text, rng):
    start = body_start(text)
    toks = [m for m in TOKEN.finditer(text) if m.start() >= start]
    if not toks:
        return text, "none"
    kind = rng.choice(["delete", "dup", "swap", "type", "suffix", "op", "punct", "ident", "keyword"])
    t = rng.choice(toks)
    s, e, tok = t.start(), t.end(), t.group(0)
    if kind == "delete":
        return text[:s] + text[e:], "delete '%s'" % tok
    if kind == "dup":
        return text[:e] + " " + tok + text[e:], "duplicate '%s'" % tok
    if kind == "swap":
        i = toks.index(t)
        if i + 1 < len(toks):
            u = toks[i + 1]
            return (text[:s] + u.group(0) + text[e:u.start()] + tok + text[u.end():],
                    "swap '%s' '%s'" % (tok, u.group(0)))
        return text[:s] + text[e:], "delete '%s'" % tok
    if kind == "type":
        cands = [m for m in toks if m.group(0) in ("u32", "i32", "f32", "vec4u", "vec2f", "vec3u", "vec4f", "bool")]
        if cands:
            t = rng.choice(cands)
            new = rng.choice(TYPES)
            return text[:t.start()] + new + text[t.end():], "type '%s' -> '%s'" % (t.group(0), new)
    if kind == "suffix":
        cands = [m for m in toks if re.match(r"^[0-9]", m.group(0))]
        if cands:
            t = rng.choice(cands)
            lit = t.group(0).rstrip("fhiu")
            new = lit + rng.choice(["", "u", "i", "f", "h", ".0", "e40", "0000000000"])
            return text[:t.start()] + new + text[t.end():], "literal '%s' -> '%s'" % (t.group(0), new)
    if kind == "op":
        cands = [m for m in toks if m.group(0) in OPS]
        if cands:
            t = rng.choice(cands)
            new = rng.choice(OPS)
            return text[:t.start()] + new + text[t.end():], "operator '%s' -> '%s'" % (t.group(0), new)
    if kind == "punct":
        cands = [m for m in toks if m.group(0) in (";", "{", "}", "(", ")", ",", ":")]
        if cands:
            t = rng.choice(cands)
            return text[:t.start()] + text[t.end():], "drop '%s'" % t.group(0)
    if kind == "ident":
        idents = [m for m in toks if re.match(r"^[A-Za-z_]\w*$", m.group(0))]
        if len(idents) > 1:
            t, u = rng.choice(idents), rng.choice(idents)
            return (text[:t.start()] + u.group(0) + text[t.end():],
                    "identifier '%s' -> '%s'" % (t.group(0), u.group(0)))
    kw = rng.choice(KEYWORDS)
    return text[:s] + kw + " " + text[s:], "insert '%s'" % kw


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--count", type=int, default=200)
    ap.add_argument("--out", required=True)
    ap.add_argument("files", nargs="+")
    a = ap.parse_args()
    rng = random.Random(a.seed)
    os.makedirs(a.out, exist_ok=True)
    sources = [(f, open(f, encoding="utf-8", errors="surrogateescape").read()) for f in sorted(a.files)]
    for n in range(a.count):
        f, text = rng.choice(sources)
        new, what = mutate(text, rng)
        path = os.path.join(a.out, "mut-%04d.wgsl" % n)
        with open(path, "w", encoding="utf-8", errors="surrogateescape") as out:
            out.write("// mutant of %s: %s\n%s" % (f, what.replace("\n", " "), new))
        print(path)


if __name__ == "__main__":
    main()
