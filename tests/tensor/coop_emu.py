#!/usr/bin/env python3
"""coop_emu.py - runs the tensor-core kernels (matmul_coop.wgsl, flash_coop.wgsl, and the ceiling
kernel tests/tensor/coop_peak.wgsl) on an adapter
without cooperative matrices (lavapipe) with the subgroup matrices emulated in WGSL, and checks the
results against a double-precision reference, so that CI checks the kernels' indexing, staging,
ragged edges and online softmax, not only that they compile (test_matmul_coop / test_attention_coop
run them for real where the device has cooperative matrices).

Emulation: each 16 x 16 matrix value lives as 8 elements per invocation (invocation i % 32 of the
emulated subgroup i / 32 holds row (i % 32) / 2, columns 8 ((i % 32) % 2) ..); loads and stores
read and write those elements; a multiply-accumulate exchanges A and B through workgroup memory
between two barriers (every call site of the kernels is in workgroup-uniform control flow).
@builtin(subgroup_id) becomes local_invocation_index / 32.  The kernels run through `wgc run`
with the Params block built here (common.wgsl's layout) and .npy files.  Lavapipe's 32 KiB of
workgroup memory (which wg enforces, as WebGPU does): matmul runs matmul_coop.wgsl's two ops, 0
(double-buffered) with K slices of 16 and 1 (one slice buffer) as is, flash_coop D 64.

Usage: coop_emu.py WGC_BINARY WORKDIR; exit status 1 on a mismatch or a failed run.
"""
import math
import os
import random
import re
import struct
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
KDIR = os.path.join(ROOT, "src", "tensor", "kernels")


def prelude(op, ma, mb, mc, sc="f16", so="f16"):
    return ("enable f16;\nalias SO = %s;\nalias SA = f16;\nalias SB = f16;\nalias SC = %s;\nalias C = f32;\n"
            "const OP: u32 = %du;\nconst MA: u32 = %du;\nconst MB: u32 = %du;\nconst MC: u32 = %du;\n"
            "const VPT: u32 = 1u;\nvar<private> LI: u32;\n" % (so, sc, op, ma, mb, mc))


def shim(loads, stores, nsg):
    """The emulated subgroup-matrix loads, stores and multiply-accumulate (an exchange array of
    nsg * 512 halves in workgroup memory)."""
    s = ["fn lrc(e: u32) -> vec2<u32> { let l = LI % 32u; return vec2<u32>(l / 2u, (l % 2u) * 8u + e); }",
         "fn at(off: u32, cm: bool, st: u32, e: u32) -> u32 { let rc = lrc(e); "
         "return select(off + rc.x * st + rc.y, off + rc.y * st + rc.x, cm); }"]
    for ty, arr in loads:
        s.append("fn sml_%s_%s(off: u32, cm: bool, st: u32) -> %s { var m: %s; "
                 "for (var e = 0u; e < 8u; e++) { m[e] = %s[at(off, cm, st, e)]; } return m; }" % (ty, arr, ty, ty, arr))
    for arr in stores:
        s.append("fn sms_%s(off: u32, v: Acc, cm: bool, st: u32) { "
                 "for (var e = 0u; e < 8u; e++) { %s[at(off, cm, st, e)] = v[e]; } }" % (arr, arr))
    s.insert(0, "var<workgroup> exch: array<f16, %d>;" % (nsg * 512))
    s.append("""fn smma(a: Left, b: Right, c0: Acc) -> Acc {
    let base = (LI / 32u) * 512u;
    workgroupBarrier();
    for (var e = 0u; e < 8u; e++) { let rc = lrc(e); exch[base + rc.x * 16u + rc.y] = a[e]; exch[base + 256u + rc.x * 16u + rc.y] = b[e]; }
    workgroupBarrier();
    var c = c0;
    for (var e = 0u; e < 8u; e++) {
        let rc = lrc(e);
        var s = c[e];
        for (var k = 0u; k < 16u; k++) { s += f32(exch[base + rc.x * 16u + k]) * f32(exch[base + 256u + k * 16u + rc.y]); }
        c[e] = s;
    }
    workgroupBarrier();
    return c;
}""")
    return "\n".join(s) + "\n"


def emulate(text):
    t = text
    t = re.sub(r"alias Left = subgroup_matrix_left<f16, 16, 16>;", "alias Left = array<f16, 8>;", t)
    t = re.sub(r"alias Right = subgroup_matrix_right<f16, 16, 16>;", "alias Right = array<f16, 8>;", t)
    t = re.sub(r"alias Acc = subgroup_matrix_result<f32, 16, 16>;", "alias Acc = array<f32, 8>;", t)
    loads = sorted(set(re.findall(r"subgroupMatrixLoad<(\w+)>\(&(\w+), ", t)))
    stores = sorted(set(re.findall(r"subgroupMatrixStore\(&(\w+), ", t)))
    t = re.sub(r"subgroupMatrixLoad<(\w+)>\(&(\w+), ", r"sml_\1_\2(", t)
    t = re.sub(r"subgroupMatrixStore\(&(\w+), ", r"sms_\1(", t)
    t = t.replace("subgroupMatrixMultiplyAccumulate(", "smma(")
    t = t.replace("@builtin(subgroup_id) sid: u32", "@builtin(num_workgroups) nwg_: vec3<u32>")
    t, n = re.subn(r"(\n@compute[^{]*\{\n)", r"\1    LI = li;\n    let sid = li / 32u;\n", t, count=1)
    assert n == 1, "no entry point"
    return t, loads, stores


def f16(x):
    return struct.unpack("<e", struct.pack("<e", x))[0]


def npy(path, fmt, descr, vals):
    hdr = "{'descr': '%s', 'fortran_order': False, 'shape': (%d,), }" % (descr, len(vals))
    hdr += " " * ((64 - (10 + len(hdr) + 1) % 64) % 64) + "\n"
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(hdr)) + hdr.encode())
        f.write(struct.pack("<%d%s" % (len(vals), fmt), *vals))


def rdnpy(path):
    b = open(path, "rb").read()
    hl = struct.unpack("<H", b[8:10])[0]
    h, d = b[10:10 + hl].decode(), b[10 + hl:]
    return list(struct.unpack("<%de" % (len(d) // 2), d)) if "<f2" in h else list(struct.unpack("<%df" % (len(d) // 4), d))


def params(n, gx, off=(0, 0, 0), sv=(0, 0, 0, 0), aux=(0, 0), shape=(), st=()):
    p = [0] * 48
    p[0], p[2] = n, gx
    p[4:4 + len(off)] = off
    p[8:8 + len(sv)] = [x & 0xffffffff for x in sv]
    p[12:12 + len(aux)] = aux
    p[16:16 + len(shape)] = shape
    for i, v in enumerate(st):
        p[24 + i] = v & 0xffffffff
    return p


def run(wgc, work, name, src, groups, binds, outn, odt="f16"):
    path = os.path.join(work, name + ".wgsl")
    open(path, "w").write(src)
    cmd = [wgc, "run", path, "--dispatch", str(groups), "--bind",
           "0:0=zeros:%s:%d,out:%s" % (odt, outn, os.path.join(work, name + "_out.npy"))]
    for b in binds:
        cmd += ["--bind", b]
    # lavapipe compiles a pipeline at its first dispatch, inside the wait: the emulated X3 flash
    # kernel (flash_x3.wgsl, 48 inlined multiply-accumulates) takes about 70 s there on 2 cores without a shader cache
    env = dict(os.environ, WGC_LOST_TIMEOUT_MS="600000")
    r = subprocess.run(cmd, capture_output=True, text=True, env=env)
    if r.returncode:
        print("FAIL %s: wgc run exit %d\n%s%s" % (name, r.returncode, r.stdout[-1500:], r.stderr[-1500:]))
        return None
    return rdnpy(os.path.join(work, name + "_out.npy"))


# matmul_coop.wgsl's ops (coop128x128, coop128x128s): tile rows, columns, subgroups; op 0 runs with K
# slices of 16 (MM_BK16) to fit lavapipe's 32 KiB of workgroup memory
MM_TILES = {0: (128, 128, 4), 1: (128, 128, 4)}
MM_BK16 = (0,)


def matmul_case(wgc, work, op, M, N, K, ta, tb, bias, rnd):
    """matmul_coop.wgsl op (MM_TILES), A (M, K), B (K, N)."""
    TM, TN, nsg = MM_TILES[op]
    text = open(os.path.join(KDIR, "matmul_coop.wgsl")).read()
    if op in MM_BK16:
        text, k = re.subn(r"const BK: u32 = [^;]*;", "const BK: u32 = 16u;", text)
        assert k == 1
    em, loads, stores = emulate(text)
    src = (prelude(op % 100, int(ta), int(tb), int(bias)) + open(os.path.join(KDIR, "common.wgsl")).read() + em +
           shim(loads, stores, nsg))
    A = [f16(rnd.uniform(-1, 1)) for _ in range(M * K)]
    B = [f16(rnd.uniform(-1, 1)) for _ in range(K * N)]
    Cb = [f16(rnd.uniform(-1, 1)) for _ in range(N)]
    lda, ldb = (M if ta else K), (K if tb else N)      # contiguous storage of A or A^T, B or B^T
    As = [A[m * K + kk] for kk in range(K) for m in range(M)] if ta else A
    Bs = [B[kk * N + n] for n in range(N) for kk in range(K)] if tb else B
    pad = lambda v: v + [0.0] * ((-len(v)) % 8)
    for nm, v in (("a", As), ("b", Bs), ("c", Cb)):
        npy(os.path.join(work, "mm_%s.npy" % nm), "e", "<f2", pad(v))
    tn, tm = (N + TN - 1) // TN, (M + TM - 1) // TM
    p = params(tm * tn * 256, tm * tn, sv=(M, N, K, tn), aux=(lda, ldb), st=[0] * 16 + [1])
    npy(os.path.join(work, "mm_p.npy"), "I", "<u4", p)
    binds = ["0:%d=%s" % (i + 1, os.path.join(work, "mm_%s.npy" % nm)) for i, nm in enumerate("abc")]
    binds.append("1:0=" + os.path.join(work, "mm_p.npy"))
    name = "mm%d_%dx%dx%d%s%s%s" % (op, M, N, K, "_at" if ta else "", "_bt" if tb else "", "_bias" if bias else "")
    out = run(wgc, work, name, src, tm * tn, binds, M * N)
    if out is None:
        return False
    bad, worst = 0, 0.0
    for m in range(M):
        for n in range(N):
            s = sum(A[m * K + kk] * B[kk * N + n] for kk in range(K)) + (Cb[n] if bias else 0)
            sa = sum(abs(A[m * K + kk] * B[kk * N + n]) for kk in range(K)) + (abs(Cb[n]) if bias else 0)
            tol = 2e-3 * abs(s) + 1e-3 * sa + 1e-3
            err = abs(out[m * N + n] - s) / tol
            bad += err > 1
            worst = max(worst, err)
    print("%s %s: worst error %.3f of the bound" % ("ok  " if not bad else "FAIL", name, worst))
    return bad == 0


def peak_case(wgc, work, mode, rnd, steps=5, nsg=4):
    """tests/tensor/coop_peak.wgsl (test_coop_peak.c's ceiling kernel), 4 x 4 accumulators, one
    workgroup: every subgroup's 16 accumulators after `steps` steps against the exact sums."""
    text = open(os.path.join(ROOT, "tests", "tensor", "coop_peak.wgsl")).read()
    em, loads, stores = emulate(text)
    src = ("enable f16;\nconst MODE: u32 = %du;\nconst RA: u32 = 4u;\nconst RB: u32 = 4u;\nconst NSG: u32 = %du;\n"
           "var<private> LI: u32;\n" % (mode, nsg)) + em + shim(loads, stores, nsg)
    qa = [rnd.randint(-4, 4) for _ in range(64 * 32)]
    qb = [rnd.randint(-4, 4) for _ in range(32 * 64)]
    npy(os.path.join(work, "pk_in.npy"), "e", "<f2", [q / 4 for q in qa + qb])
    npy(os.path.join(work, "pk_p.npy"), "I", "<u4", [steps, 0, 0, 0])
    name = "peak_mode%d" % mode
    path = os.path.join(work, name + ".wgsl")
    open(path, "w").write(src)
    outp = os.path.join(work, name + "_out.npy")
    r = subprocess.run([wgc, "run", path, "--dispatch", "1", "--bind", "0:0=zeros:f32:%d,out:%s" % (nsg * 16 * 256, outp),
                        "--bind", "0:1=" + os.path.join(work, "pk_in.npy"), "--bind", "0:2=" + os.path.join(work, "pk_p.npy")],
                       capture_output=True, text=True)
    if r.returncode:
        print("FAIL %s: wgc run exit %d\n%s%s" % (name, r.returncode, r.stdout[-1500:], r.stderr[-1500:]))
        return False
    out = rdnpy(outp)
    bad = 0
    for i in range(4):
        for j in range(4):
            for e in range(256):
                rr, cc = e // 16, e % 16
                lo = sum(qa[(i * 16 + rr) * 32 + k] * qb[k * 64 + j * 16 + cc] for k in range(16)) / 16
                hi = sum(qa[(i * 16 + rr) * 32 + 16 + k] * qb[(16 + k) * 64 + j * 16 + cc] for k in range(16)) / 16
                x = steps * lo if mode == 0 else (steps + 1) // 2 * lo + steps // 2 * hi
                for g in range(nsg):
                    bad += out[(g * 16 + i * 4 + j) * 256 + e] != x
    print("%s %s: %d wrong of %d" % ("ok  " if not bad else "FAIL", name, bad, nsg * 16 * 256))
    return bad == 0


def flash_case(wgc, work, Lq, Lk, causal, scale, rnd, H=2, Hkv=1, D=64, x3=None):
    """flash_coop.wgsl, or with x3 = (q, k, v magnitudes, V 1e4 times smaller before key x3[3])
    flash_x3.wgsl: f32 operands (split into f16 hi + lo in the kernel), an f32 result."""
    em, loads, stores = emulate(open(os.path.join(KDIR, "flash_x3.wgsl" if x3 else "flash_coop.wgsl")).read() +
                                open(os.path.join(KDIR, "flash_tc.wgsl")).read())   # as kernel.c
    src = (prelude(0, 0, 0, int(causal), so="f32" if x3 else "f16") + open(os.path.join(KDIR, "common.wgsl")).read() + em +
           shim(loads, stores, 4))
    if x3:
        f32 = lambda x: struct.unpack("<f", struct.pack("<f", x))[0]
        q = [f32(rnd.uniform(-1, 1) * x3[0]) for _ in range(H * Lq * D)]
        k = [f32(rnd.uniform(-1, 1) * x3[1]) for _ in range(Hkv * Lk * D)]
        v = [f32(rnd.uniform(-1, 1) * x3[2] * (1e-4 if (i // D) % Lk < x3[3] else 1)) for i in range(Hkv * Lk * D)]
        fmt, descr, epc = "f", "<f4", 4
    else:
        q = [f16(rnd.uniform(-1, 1)) for _ in range(H * Lq * D)]
        k = [f16(rnd.uniform(-1, 1)) for _ in range(Hkv * Lk * D)]
        v = [f16(rnd.uniform(-1, 1)) for _ in range(Hkv * Lk * D)]
        fmt, descr, epc = "e", "<f2", 8
    for nm, t in (("q", q), ("k", k), ("v", v)):
        npy(os.path.join(work, "fa_%s.npy" % nm), fmt, descr, t)
    nqb = (Lq + 63) // 64
    sbits = struct.unpack("<I", struct.pack("<f", scale))[0]
    st = lambda L: [0, L * D, D, 1, 0, 0, 0, 0]
    p = params(H * nqb * 256, H * nqb, sv=(sbits,), shape=(1, H, Lq, Lk, D, H // Hkv, nqb, 0),
               st=st(Lq) + st(Lk) + st(Lk))
    npy(os.path.join(work, "fa_p.npy"), "I", "<u4", p)
    binds = ["0:%d=%s" % (i + 1, os.path.join(work, "fa_%s.npy" % nm)) for i, nm in enumerate("qkv")]
    binds.append("1:0=" + os.path.join(work, "fa_p.npy"))
    name = "flash_%dx%d%s_scale%g%s" % (Lq, Lk, "_causal" if causal else "", scale, "_x3" if x3 else "")
    out = run(wgc, work, name, src, H * nqb, binds, H * Lq * D, "f32" if x3 else "f16")
    if out is None:
        return False
    bad, worst, G = 0, 0.0, H // Hkv
    for h in range(H):
        for i in range(Lq):
            qr = q[(h * Lq + i) * D:][:D]
            s, sa = [], 0.0
            for j in range(Lk):
                if causal and j > i + Lk - Lq:
                    s.append(-math.inf)
                    continue
                kr = k[((h // G) * Lk + j) * D:][:D]
                s.append(sum(a * b for a, b in zip(qr, kr)) * scale)
                sa = max(sa, sum(abs(a * b) for a, b in zip(qr, kr)) * scale)
            m = max(s)
            pr = [0.0 if m == -math.inf else math.exp(x - m) for x in s]
            tot = sum(pr)
            vmax = max([abs(v[((h // G) * Lk + j) * D + d]) for j in range(Lk) for d in range(D) if s[j] != -math.inf] or [0])
            for d in range(D):
                ref = sum(pr[j] * v[((h // G) * Lk + j) * D + d] for j in range(Lk)) / tot if tot > 0 else 0.0
                # f16 P: 4e-3 of the value; X3 (about 2^-22 per product): 1e-6 of the largest |v| the
                # row sees times 1 + the scores' magnitude (an error in s is one in exp(s))
                bound = 1e-6 * vmax * (1 + sa) if x3 else 4e-3 * (1 + abs(ref))
                err = abs(out[(h * Lq + i) * D + d] - ref) / bound if bound > 0 else abs(out[(h * Lq + i) * D + d]) * 1e30
                bad += not (err <= 1)
                worst = max(worst, err)
    print("%s %s: worst error %.3f of the bound" % ("ok  " if not bad else "FAIL", name, worst))
    return bad == 0


def main():
    if len(sys.argv) != 3:
        print(__doc__)
        return 2
    wgc, work = sys.argv[1], sys.argv[2]
    rnd = random.Random(1234)
    good = True
    good &= flash_case(wgc, work, 100, 100, True, 0.125, rnd)
    good &= flash_case(wgc, work, 37, 130, True, 4.0, rnd)     # KV cache, grouped heads, rescaled O
    # flash_x3.wgsl (f32 operands split into f16 hi + lo): |q| 3e4 (past f16's range), |k| 1e-3, V 1e-4 times
    # smaller before key 40 (O follows V's growing exponent); then plain magnitudes with a large scale
    good &= flash_case(wgc, work, 40, 72, True, 0.125, rnd, x3=(3e4, 1e-3, 1e3, 40))
    good &= flash_case(wgc, work, 37, 130, True, 4.0, rnd, x3=(1, 1, 1, 0))
    for mode in range(4):
        good &= peak_case(wgc, work, mode, rnd)
    good &= matmul_case(wgc, work, 0, 136, 72, 48, False, False, True, rnd)
    good &= matmul_case(wgc, work, 0, 64, 136, 32, True, True, False, rnd)
    good &= matmul_case(wgc, work, 1, 136, 200, 48, False, True, True, rnd)
    good &= matmul_case(wgc, work, 1, 72, 136, 96, True, False, False, rnd)
    good &= matmul_case(wgc, work, 1, 136, 72, 80, False, False, True, rnd)    # a ragged slice
    good &= matmul_case(wgc, work, 1, 64, 136, 48, True, True, False, rnd)
    return 0 if good else 1


if __name__ == "__main__":
    sys.exit(main())
