#!/usr/bin/env python3
"""expect.py - check the outputs dawn-run.mjs wrote against each kernel's own expectations.

Usage: python3 tests/oracle/expect.py OUTDIR KERNEL.wgsl...

OUTDIR is dawn-run.mjs's --out directory (results.json plus <stem>/<g>_<b>.{in,out}.bin).
For every kernel this script
  - re-parses the spec lines (format: the header of tests/oracle/dawn-run.mjs) with its own
    parser and regenerates every binding's initial bytes with its own generators, which must
    equal the .in.bin that dawn-run wrote (two implementations of one definition; the C parity
    driver is the third);
  - requires status "ok", or "unsupported" only when the kernel has @requires, or "skip" only
    with @dawn-skip;
  - requires at least one @expect, @expect-py or @assert-py line, and checks them all:
      @expect G:B T [at=K] [ulp:N|abs:X] V,V,...    ("_" skips, f32 "nan" = any NaN)
      @expect-py G:B T [at=K] [ulp:N|abs:X] EXPR    (EXPR gives the list of expected values)
      @assert-py EXPR                               (must be true)
      @let-py NAME = EXPR                           (a name for the later expressions)
    Names in EXPR: inp(g,b,T), out(g,b,T) (lists of u32/i32/f32), f32(x), i32(x), u32(x),
    f32bits(x), bitsf32(u), math, struct.  Integers compare after wrapping to T; f32 values
    compare bit for bit unless a tolerance is given, except that +0.0 and -0.0 are equal (WGSL
    lets implementations ignore the sign of a zero).
Prints one line per kernel and "N passed, N failed, N unsupported, N skipped"; exit 1 on any
failure.  Standard library only.
"""
import json
import math
import os
import re
import struct
import sys

CANARY = 0xCAFEBABE
TYPES = ("u32", "i32", "f32")


def f32(x):
    """Round a Python float to the nearest f32 (ties to even), overflow to +-inf."""
    x = float(x)
    try:
        return struct.unpack("<f", struct.pack("<f", x))[0]
    except OverflowError:
        return math.copysign(math.inf, x)


def u32(x):
    return int(x) & 0xFFFFFFFF


def i32(x):
    x = int(x) & 0xFFFFFFFF
    return x - (1 << 32) if x & 0x80000000 else x


def f32bits(x):
    return struct.unpack("<I", struct.pack("<f", f32(x)))[0]


def bitsf32(u):
    return struct.unpack("<f", struct.pack("<I", u32(u)))[0]


def decode(data, t):
    n = len(data) // 4
    fmt = {"u32": "I", "i32": "i", "f32": "f"}[t]
    return list(struct.unpack("<%d%s" % (n, fmt), data[: 4 * n]))


# ------------------------------------------------------------------ spec parsing
def parse_spec(text):
    spec = {"binds": [], "requires": [], "skip": None, "expects": [], "errors": []}
    for ln, line in enumerate(text.split("\n"), 1):
        line = line.strip()
        if not line:
            continue
        if not line.startswith("//"):
            break
        m = re.match(r"^//\s*@([a-z][a-z0-9-]*)\s*(.*)$", line)
        if not m:
            continue
        word, rest = m.group(1), m.group(2).strip()
        if word == "bind":
            try:
                spec["binds"].append(parse_bind(rest))
            except ValueError as e:
                spec["errors"].append("line %d: %s" % (ln, e))
        elif word == "requires":
            spec["requires"].append(rest)
        elif word == "dawn-skip":
            spec["skip"] = rest
        elif word in ("expect", "expect-py", "assert-py", "let-py"):
            spec["expects"].append((ln, word, rest))
        elif word not in ("dispatch", "entry", "override", "compare", "note"):
            spec["errors"].append("line %d: unknown spec word @%s" % (ln, word))
    return spec


def parse_bind(rest):
    t = rest.split()
    m = re.match(r"^(\d+):(\d+)$", t[0] if t else "")
    if not m:
        raise ValueError("bad @bind '%s'" % rest)
    b = {"g": int(m.group(1)), "b": int(m.group(2)), "init": "zero", "fill": 0, "pad": 0}
    i = 1
    if t[i:i + 2] in (["storage", "rw"], ["storage", "read"]):
        i += 2
    elif t[i:i + 1] == ["uniform"]:
        i += 1
    else:
        raise ValueError("bad @bind kind in '%s'" % rest)
    b["size"] = int(t[i])
    for opt in t[i + 1:]:
        k, _, v = opt.partition("=")
        if k == "init":
            b["init"] = v
        elif k == "fill":
            b["fill"] = int(v, 0) & 0xFFFFFFFF
        elif k == "pad":
            b["pad"] = int(v, 0)
        else:
            raise ValueError("bad @bind option '%s'" % opt)
    return b


def parse_f32_token(v):
    """An f32 value: decimal (parsed as a double, then rounded), nan, inf, -inf or 0xBITS."""
    v = v.strip()
    if v.lower().startswith("0x"):
        return bitsf32(int(v, 16))
    special = {"nan": math.nan, "inf": math.inf, "-inf": -math.inf}
    return special[v] if v in special else f32(float(v))


def make_init(b):
    n = b["size"] // 4
    words = [b["fill"]] * n
    p = b["init"].split(":")
    kind = p[0]
    if kind == "fill":
        words = [int(p[1], 16) & 0xFFFFFFFF] * n
    elif kind == "ramp":
        t = p[1]
        start = float(p[2]) if len(p) > 2 else 0.0
        step = float(p[3]) if len(p) > 3 else 1.0
        for k in range(n):
            if t == "f32":
                words[k] = f32bits(start + k * step)
            else:
                words[k] = u32(int(start) + k * int(step))
    elif kind == "rand":
        t = p[1]
        x = int(p[2], 0) & 0xFFFFFFFF
        if x == 0:
            x = 0x9E3779B9
        for k in range(n):
            x ^= (x << 13) & 0xFFFFFFFF
            x ^= x >> 17
            x ^= (x << 5) & 0xFFFFFFFF
            words[k] = f32bits((x >> 8) * 2.0 ** -23 - 1.0) if t == "f32" else x
    elif kind == "vals":
        t = p[1]
        for k, v in enumerate(p[2].split(",")):
            if t == "f32":
                v = v.strip()
                words[k] = int(v, 16) & 0xFFFFFFFF if v.lower().startswith("0x") \
                    else f32bits(parse_f32_token(v))
            else:
                words[k] = u32(int(v, 0))
    elif kind != "zero":
        raise ValueError("unknown init '%s'" % b["init"])
    return struct.pack("<%dI" % n, *words)


# ------------------------------------------------------------------ checking
def ordered(x):
    """f32 bits as an integer line where adjacent floats differ by one (for ulp distance)."""
    u = f32bits(x)
    return -(u & 0x7FFFFFFF) if u & 0x80000000 else u


def same(t, got, want, tol):
    if want is None:  # "_"
        return True
    if t != "f32":
        return (u32(got) == u32(want))
    if isinstance(want, float) and math.isnan(want):
        return math.isnan(got)
    if math.isnan(got):
        return False
    if got == 0.0 and want == 0.0:  # WGSL lets an implementation ignore the sign of a zero
        return True
    if tol is None:
        return f32bits(got) == f32bits(want)
    kind, amount = tol
    if kind == "ulp":
        return abs(ordered(got) - ordered(want)) <= amount
    return abs(got - want) <= amount


def split_opts(rest):
    """'0:1 f32 at=4 ulp:2 REST' -> (g, b, t, at, tol, REST)."""
    m = re.match(r"^(\d+):(\d+)\s+(u32|i32|f32)\s+(.*)$", rest)
    if not m:
        raise ValueError("expected 'G:B T ...'")
    g, b, t, rest = int(m.group(1)), int(m.group(2)), m.group(3), m.group(4)
    at, tol = 0, None
    while True:
        m = re.match(r"^(at=(\d+)|ulp:(\d+)|abs:([0-9.eE+-]+))\s+(.*)$", rest)
        if not m:
            break
        if m.group(2):
            at = int(m.group(2))
        elif m.group(3):
            tol = ("ulp", int(m.group(3)))
        else:
            tol = ("abs", float(m.group(4)))
        rest = m.group(5)
    return g, b, t, at, tol, rest


def check_kernel(path, outdir, result):
    name = os.path.basename(path)[:-5]
    spec = parse_spec(open(path, encoding="utf-8").read())
    problems = list(spec["errors"])
    if not [e for e in spec["expects"] if e[1] != "let-py"]:
        problems.append("no @expect/@expect-py/@assert-py line: the kernel checks nothing")
    status = result.get("status") if result else "missing"
    if status == "unsupported":
        if not spec["requires"]:
            problems.append("unsupported without @requires: " + result.get("message", ""))
        return ("unsupported", problems, result.get("message", ""))
    if status == "skip":
        if not spec["skip"]:
            problems.append("skipped without @dawn-skip")
        return ("skip", problems, spec["skip"] or "")
    if status != "ok":
        problems.append("run: %s %s" % (status, (result or {}).get("message", "")))
        return ("fail", problems, "")
    data_in, data_out = {}, {}
    for b in spec["binds"]:
        key = (b["g"], b["b"])
        base = os.path.join(outdir, name, "%d_%d" % key)
        try:
            data_in[key] = open(base + ".in.bin", "rb").read()
            data_out[key] = open(base + ".out.bin", "rb").read()
        except OSError as e:
            problems.append("missing output: %s" % e)
            continue
        try:
            mine = make_init(b)
        except (ValueError, IndexError) as e:
            problems.append("init of %d:%d: %s" % (key + (e,)))
            continue
        if mine != data_in[key]:
            problems.append("binding %d:%d: initial bytes differ between dawn-run.mjs and expect.py"
                            % key)
    env = {"math": math, "struct": struct, "f32": f32, "i32": i32, "u32": u32,
           "f32bits": f32bits, "bitsf32": bitsf32,
           "inp": lambda g, b, t="u32": decode(data_in[(g, b)], t),
           "out": lambda g, b, t="u32": decode(data_out[(g, b)], t)}
    for ln, word, rest in spec["expects"]:
        try:
            if word == "let-py":
                m = re.match(r"^([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.+)$", rest)
                if not m:
                    raise ValueError("expected 'NAME = EXPR'")
                env[m.group(1)] = eval(m.group(2), env)
                continue
            if word == "assert-py":
                if not eval(rest, env):
                    problems.append("line %d: @assert-py is false: %s" % (ln, rest))
                continue
            g, b, t, at, tol, rest = split_opts(rest)
            got = decode(data_out[(g, b)], t)
            if word == "expect":
                want = []
                for v in rest.split(","):
                    v = v.strip()
                    if v == "_":
                        want.append(None)
                    elif t == "f32":
                        want.append(parse_f32_token(v))
                    else:
                        want.append(int(v, 0))
            else:
                want = list(eval(rest, env))
                if t == "f32":
                    want = [None if w is None else f32(w) for w in want]
            if at + len(want) > len(got):
                problems.append("line %d: expects %d values from %d, binding holds %d"
                                % (ln, len(want), at, len(got)))
                continue
            bad = [(at + k, got[at + k], w) for k, w in enumerate(want)
                   if not same(t, got[at + k], w, tol)]
            for idx, gv, wv in bad[:6]:
                problems.append("line %d: %d:%d[%d] %s = %r, expected %r" % (ln, g, b, idx, t, gv, wv))
            if len(bad) > 6:
                problems.append("line %d: ... %d more mismatches" % (ln, len(bad) - 6))
        except Exception as e:  # a broken expectation is a failure, never a pass
            problems.append("line %d: @%s: %s: %s" % (ln, word, type(e).__name__, e))
    return ("ok" if not problems else "fail", problems, "")


def main(argv):
    if len(argv) < 3:
        sys.stderr.write("usage: expect.py OUTDIR KERNEL.wgsl...\n")
        return 2
    outdir = argv[1]
    try:
        results = {r["name"]: r for r in json.load(open(os.path.join(outdir, "results.json")))}
    except (OSError, ValueError) as e:
        sys.stderr.write("expect.py: cannot read %s/results.json: %s\n" % (outdir, e))
        return 2
    counts = {"ok": 0, "fail": 0, "unsupported": 0, "skip": 0}
    for path in argv[2:]:
        name = os.path.basename(path)[:-5]
        verdict, problems, why = check_kernel(path, outdir, results.get(name))
        if problems:
            verdict = "fail"
        counts[verdict] += 1
        print("%-11s %s%s" % (verdict.upper() if verdict == "fail" else verdict, name,
                               (" (" + why + ")") if why else ""))
        for p in problems:
            print("     | " + p)
    print("%d passed, %d failed, %d unsupported, %d skipped"
          % (counts["ok"], counts["fail"], counts["unsupported"], counts["skip"]))
    return 1 if counts["fail"] else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
