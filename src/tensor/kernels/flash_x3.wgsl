// flash_x3.wgsl - flash attention on tensor cores for f32 q, k, v at about f32 accuracy: every
// operand is split into two f16 parts, hi + lo, and each product taken as hi.hi + hi.lo + lo.hi
// (the lo.lo term, 2^-22 of the product, is dropped), accumulated in f32 (CUTLASS's 3xTF32 does
// the same with TF32, which Vulkan's cooperative matrices do not offer; PyTorch's f32 SDPA runs it
// on such GPUs); for wt_scaled_dot_product_attention with precision WT_ATTENTION_F32_TENSOR
// (src/tensor/attention_coop.c), through Dawn's chromium_experimental_subgroup_matrix extension.
//
// The structure is flash_coop.wgsl's (the f16 kernel; read its header first): a workgroup of 4
// subgroups takes BR = 64 query rows of one (batch, head), the keys in blocks of BC = 32, S through
// `sc` to a half row per invocation for the online softmax (lazy rescaling: P <= 256), O in D / 16
// accumulators per subgroup.  What X3 adds:
//   - f16's range.  Each block of rows (the workgroup's Q rows, each K block, each V block) is
//     scaled by 2^-e, e from the block's largest |x| (met through workgroup atomics on its bits),
//     so that the hi parts stay below 2^15 and the lo parts normal; S is scaled back by
//     2^(e_q + e_k) in the softmax.  V's exponent only grows along the keys: O is kept in units
//     of the current one, and when a block raises it every O accumulator is rescaled (the same
//     workgroup-uniform step as a moved row maximum).  P (<= 256) is split as 2^7 P.
//   - The hi part is x with its mantissa cut to f16's 10 bits by a mask, the lo part f16(x - hi):
//     NVIDIA's compiler folds x - f32(f16(x)) to 0 (on the H200 every lo part came out 0 and the
//     results had f16's error, 30-80 times the bound of test_attention_coop).
//   - kv holds two planes of each: Q hi rows 0..63, lo 64..127 at the start; then K hi 0..31, K
//     lo 32..63, V hi 64..95, V lo 96..127; P's two planes (2 x 64 rows of PS) go over the K rows
//     once S has read them.  16-byte chunks are 4 floats.  Workgroup memory: 43584 bytes at D 128,
//     27184 at D 64.
// Specialisation: MA 0 = D 64, 1 = D 128; MC bit 0 = causal (query i sees keys j <= i + Lk - Lq).
// q, k, v are read through strides P.st[0/2/4] (batch, head, row, d) with d contiguous and every
// stride and offset a multiple of 4 (attention_coop.c checks); rows past Lq / Lk read as zeros.
// P.shape[0] = (B, H, Lq, Lk), P.shape[1] = (D, H / Hkv, query blocks, -), P.sv.x = scale bits.
// H200, B1 H32 S4096 D128 causal f32 (`wgc bench llm` at e38f2c3): 41.88 TFLOP/s, 0.98 of torch's
// f32 SDPA; the P V products in the order hi.hi, lo.hi, hi.lo.  255 registers, no stack.
// Every index stays inside its array by construction (kernel.c compiles this file without the
// compiler's bounds checks, as flash_coop.wgsl).  kernel.c puts the `enable` in the prelude and
// flash_tc.wgsl (neg_inf, chunk, rescale, emit: shared with flash_coop.wgsl) after this file.

@group(0) @binding(0) var<storage, read_write> out: array<SO>;   // SO = f32
@group(0) @binding(1) var<storage, read> qb: array<vec4<u32>>;
@group(0) @binding(2) var<storage, read> kb: array<vec4<u32>>;
@group(0) @binding(3) var<storage, read> vb: array<vec4<u32>>;

const CAUSAL: bool = (MC & 1u) != 0u;
const D: u32 = select(64u, 128u, MA == 1u);
const ND: u32 = D / 16u;              // 16-wide slices of the head dim
const EPC: u32 = 4u;                  // elements per 16-byte chunk (4 floats)
const DC: u32 = D / EPC;              // 16-byte chunks per row
const BR: u32 = 64u;                  // query rows per workgroup
const BC: u32 = 32u;                  // keys per block
const WGS: u32 = 128u;
const KS: u32 = D + 8u;               // row stride of kv (padded by 16 bytes against bank conflicts)
const PS: u32 = select(32u, 40u, D == 128u);   // row stride of P (its planes fit the K rows)
const NCH: u32 = 2u * BC * DC / WGS;  // K and V chunks per invocation per block
const LOG2E: f32 = 1.4426950408889634;

var<workgroup> kv: array<f16, 2u * BR * KS>;   // the planes above
var<workgroup> sc: array<f32, 4u * 16u * BC>;  // S per subgroup (16 x 32), or one O accumulator each
var<workgroup> pm: array<f32, WGS>;            // the half-row maxima, then the half-row sums
var<workgroup> flag: array<atomic<u32>, 4>;    // O is rescaled (by block parity; 16 bytes keep the
                                                // matrix rows 16-byte aligned, as flash_coop.wgsl)
var<workgroup> bmax: array<atomic<u32>, 8>;    // the largest |x| (bits) of a block's K and V (by
                                                // block parity), of the Q rows (4)

alias Left = subgroup_matrix_left<f16, 16, 16>;
alias Right = subgroup_matrix_right<f16, 16, 16>;
alias Acc = subgroup_matrix_result<f32, 16, 16>;

// the largest |x| of a chunk, as bits (ordered as the values)
fn cmax(v: vec4<u32>) -> u32 {
    let f = abs(bitcast<vec4<f32>>(v));
    return bitcast<u32>(max(max(f.x, f.y), max(f.z, f.w)));
}

// the exponent e of a block whose largest |x| has bits `bits`: |x| 2^-e < 2^15 (clamped so that
// 2^-e stays a normal f32; a block of zeros takes 0)
fn expo(bits: u32) -> i32 {
    if bits == 0u { return 0; }
    return clamp(i32((bits >> 23u) & 0xffu) - 141, -100, 114);
}

fn pow2(n: i32) -> f32 {
    return bitcast<f32>(u32(n + 127) << 23u);
}

// x with its mantissa cut to f16's 10 bits (the hi part; see the header for why not f16(x))
fn hi_part(x: vec4<f32>) -> vec4<f32> {
    return bitcast<vec4<f32>>(bitcast<vec4<u32>>(x) & vec4<u32>(0xffffe000u));
}

// chunk c of kv row `row`: 4 floats times 2^-e, hi at `row`, lo `lo` halves further
fn put_kv(row: u32, c: u32, v: vec4<u32>, lo: u32, e: i32) {
    let o = row * KS + c * 4u;
    let f = bitcast<vec4<f32>>(v) * pow2(-e);
    let t = hi_part(f);
    let h = vec4<f16>(t);                   // exact
    let l = vec4<f16>(f - t);
    kv[o] = h.x; kv[o + 1u] = h.y; kv[o + 2u] = h.z; kv[o + 3u] = h.w;
    kv[o + lo] = l.x; kv[o + lo + 1u] = l.y; kv[o + lo + 2u] = l.z; kv[o + lo + 3u] = l.w;
}

// chunk j of the block (logical rows 0..BC - 1 K, BC.. V) into kv
fn put_block(j: u32, v: vec4<u32>, ek: i32, ev: i32) {
    let row = j / DC;
    let vr = row >= BC;
    put_kv(row + select(0u, BC, vr), j % DC, v, BC * KS, select(ek, ev, vr));
}

// the largest |x| of the block's K (x) and V (y) chunks of this invocation
fn block_max(pf: ptr<function, array<vec4<u32>, NCH>>, li: u32) -> vec2<u32> {
    var m = vec2<u32>();
    for (var n = 0u; n < NCH; n++) {
        let x = cmax((*pf)[n]);
        if (li + n * WGS) / DC >= BC { m.y = max(m.y, x); } else { m.x = max(m.x, x); }
    }
    return m;
}

// Q plane pl (0 hi, 1 lo) of head dims 16 i..
fn ld_q(sid: u32, i: u32, pl: u32) -> Left {
    return subgroupMatrixLoad<Left>(&kv, (pl * BR + sid * 16u) * KS + i * 16u, false, KS);
}

// K^T (head dims 16 i.., keys j0..) of plane pl: K rows read column-major
fn ld_kt(i: u32, j0: u32, pl: u32) -> Right {
    return subgroupMatrixLoad<Right>(&kv, (pl * BC + j0) * KS + i * 16u, true, KS);
}

fn ld_v(j0: u32, i: u32, pl: u32) -> Right {
    return subgroupMatrixLoad<Right>(&kv, (2u * BC + pl * BC + j0) * KS + i * 16u, false, KS);
}

fn ld_p(sid: u32, j0: u32, pl: u32) -> Left {
    return subgroupMatrixLoad<Left>(&kv, pl * BR * PS + sid * 16u * PS + j0, false, PS);
}

// s + Q K^T over head dims 16 i.. for keys j0..
fn s_step(s: Acc, qh: Left, ql: Left, i: u32, j0: u32) -> Acc {
    let kh = ld_kt(i, j0, 0u);
    var r = subgroupMatrixMultiplyAccumulate(qh, kh, s);
    r = subgroupMatrixMultiplyAccumulate(qh, ld_kt(i, j0, 1u), r);
    return subgroupMatrixMultiplyAccumulate(ql, kh, r);
}

// o + P V for head dims 16 i.. (the block's two 16-key halves)
fn o_step(o: Acc, p0: Left, p1: Left, p0l: Left, p1l: Left, i: u32) -> Acc {
    var r = subgroupMatrixMultiplyAccumulate(p0, ld_v(0u, i, 0u), o);
    r = subgroupMatrixMultiplyAccumulate(p1, ld_v(16u, i, 0u), r);
    r = subgroupMatrixMultiplyAccumulate(p0l, ld_v(0u, i, 0u), r);
    r = subgroupMatrixMultiplyAccumulate(p1l, ld_v(16u, i, 0u), r);
    r = subgroupMatrixMultiplyAccumulate(p0, ld_v(0u, i, 1u), r);
    return subgroupMatrixMultiplyAccumulate(p1, ld_v(16u, i, 1u), r);
}

@compute @workgroup_size(128)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) li: u32,
        @builtin(subgroup_id) sid: u32) {
    let B = P.shape[0].x;
    let H = P.shape[0].y;
    let Lq = P.shape[0].z;
    let Lk = P.shape[0].w;
    let G = P.shape[1].y;
    let nqb = P.shape[1].z;
    let t = wid.y * P.gx + wid.x;
    if t >= B * H * nqb { return; }
    let qblk = t % nqb;
    let bh = t / nqb;
    let h = bh % H;
    let b = bh / H;
    let hk = h / G;
    let q0 = qblk * BR;
    let scale = bitcast<f32>(P.sv.x) * LOG2E;
    // Q rows: their largest |x| (the split's exponent), then into kv, then into left matrices
    if li < 8u { atomicStore(&bmax[li], 0u); }
    workgroupBarrier();
    var mq = 0u;
    for (var n = 0u; n < BR * DC / WGS; n++) {
        let j = li + n * WGS;
        mq = max(mq, cmax(chunk(0u, b, h, q0 + j / DC, j % DC, Lq)));
    }
    atomicMax(&bmax[4], mq);
    let eq = expo(workgroupUniformLoad(&bmax[4]));
    for (var n = 0u; n < BR * DC / WGS; n++) {
        let j = li + n * WGS;
        put_kv(j / DC, j % DC, chunk(0u, b, h, q0 + j / DC, j % DC, Lq), BR * KS, eq);
    }
    workgroupBarrier();
    let q0m = ld_q(sid, 0u, 0u);
    let q1m = ld_q(sid, 1u, 0u);
    let q2m = ld_q(sid, 2u, 0u);
    let q3m = ld_q(sid, 3u, 0u);
    let l0m = ld_q(sid, 0u, 1u);
    let l1m = ld_q(sid, 1u, 1u);
    let l2m = ld_q(sid, 2u, 1u);
    let l3m = ld_q(sid, 3u, 1u);
    var q4m = Left();
    var q5m = Left();
    var q6m = Left();
    var q7m = Left();
    var l4m = Left();
    var l5m = Left();
    var l6m = Left();
    var l7m = Left();
    if ND > 4u {
        q4m = ld_q(sid, 4u, 0u);
        q5m = ld_q(sid, 5u, 0u);
        q6m = ld_q(sid, 6u, 0u);
        q7m = ld_q(sid, 7u, 0u);
        l4m = ld_q(sid, 4u, 1u);
        l5m = ld_q(sid, 5u, 1u);
        l6m = ld_q(sid, 6u, 1u);
        l7m = ld_q(sid, 7u, 1u);
    }
    // keys this block of queries sees
    var kend = Lk;
    if CAUSAL { kend = min(Lk, select(0u, q0 + BR + Lk - Lq, q0 + BR + Lk > Lq)); }
    let nblk = (kend + BC - 1u) / BC;
    // this invocation's half row
    let R = li / 2u;
    let hh = li % 2u;
    let qr = q0 + R;
    let srow = (R / 16u) * 16u * BC + (R % 16u) * BC + hh * 16u;
    let prow = R * PS + hh * 16u;
    var m = neg_inf();
    var l = 0.0;
    var o0 = Acc();
    var o1 = Acc();
    var o2 = Acc();
    var o3 = Acc();
    var o4 = Acc();
    var o5 = Acc();
    var o6 = Acc();
    var o7 = Acc();
    // the exponents of the K and V blocks in kv, and O's (O = the accumulators times 2^(eo - 7))
    var ek = 0;
    var ev = -1000;
    var eo = -1000;
    var pf: array<vec4<u32>, NCH>;
    for (var n = 0u; n < NCH; n++) {            // block 0
        let j = li + n * WGS;
        let row = j / DC;
        pf[n] = chunk(select(1u, 2u, row >= BC), b, hk, row % BC, j % DC, Lk);
    }
    var mx2 = block_max(&pf, li);
    atomicMax(&bmax[0], mx2.x);
    atomicMax(&bmax[1], mx2.y);
    if li < 2u { atomicStore(&flag[li], 0u); }
    workgroupBarrier();                         // Q matrices loaded: kv is free
    ek = expo(atomicLoad(&bmax[0]));
    ev = expo(atomicLoad(&bmax[1]));
    for (var n = 0u; n < NCH; n++) {
        put_block(li + n * WGS, pf[n], ek, ev);
    }
    for (var blk = 0u; blk < nblk; blk++) {
        let k0 = blk * BC;
        let more = blk + 1u < nblk;
        let nx = (blk + 1u) % 2u;               // the next block's maxima slots
        if more {                               // next block into registers
            for (var n = 0u; n < NCH; n++) {
                let j = li + n * WGS;
                let row = j / DC;
                pf[n] = chunk(select(1u, 2u, row >= BC), b, hk, k0 + BC + row % BC, j % DC, Lk);
            }
            mx2 = block_max(&pf, li);
            atomicMax(&bmax[2u * nx], mx2.x);
            atomicMax(&bmax[2u * nx + 1u], mx2.y);
        }
        workgroupBarrier();                     // kv holds this block
        if li < 2u { atomicStore(&bmax[2u * (blk % 2u) + li], 0u); }   // read at its put
        // S = Q K^T
        var s0 = Acc();
        var s1 = Acc();
        s0 = s_step(s0, q0m, l0m, 0u, 0u);
        s1 = s_step(s1, q0m, l0m, 0u, 16u);
        s0 = s_step(s0, q1m, l1m, 1u, 0u);
        s1 = s_step(s1, q1m, l1m, 1u, 16u);
        s0 = s_step(s0, q2m, l2m, 2u, 0u);
        s1 = s_step(s1, q2m, l2m, 2u, 16u);
        s0 = s_step(s0, q3m, l3m, 3u, 0u);
        s1 = s_step(s1, q3m, l3m, 3u, 16u);
        if ND > 4u {
            s0 = s_step(s0, q4m, l4m, 4u, 0u);
            s1 = s_step(s1, q4m, l4m, 4u, 16u);
            s0 = s_step(s0, q5m, l5m, 5u, 0u);
            s1 = s_step(s1, q5m, l5m, 5u, 16u);
            s0 = s_step(s0, q6m, l6m, 6u, 0u);
            s1 = s_step(s1, q6m, l6m, 6u, 16u);
            s0 = s_step(s0, q7m, l7m, 7u, 0u);
            s1 = s_step(s1, q7m, l7m, 7u, 16u);
        }
        subgroupMatrixStore(&sc, sid * 16u * BC, s0, false, BC);
        subgroupMatrixStore(&sc, sid * 16u * BC + 16u, s1, false, BC);
        workgroupBarrier();
        // the half row: scale (and the blocks' exponents), mask, maximum
        let ss = scale * exp2(f32(eq + ek));
        var x: array<f32, 16>;
        var mx = neg_inf();
        for (var c = 0u; c < 16u; c++) {
            let j = k0 + hh * 16u + c;
            var v = sc[srow + c] * ss;
            if j >= Lk || (CAUSAL && j + Lq > qr + Lk) { v = neg_inf(); }
            x[c] = v;
            mx = max(mx, v);
        }
        pm[li] = mx;
        if li < 2u { atomicStore(&flag[(blk + 1u) % 2u], 0u); }
        workgroupBarrier();
        mx = max(mx, pm[li ^ 1u]);
        var a = 1.0;
        if mx > m + 8.0 {                        // also the first visible key (m = -inf)
            if m != neg_inf() {
                a = exp2(m - mx);
                atomicStore(&flag[blk % 2u], 1u);
            }
            m = mx;
        }
        // O follows V's exponent when it grows (a workgroup-uniform step)
        var ao = a;
        if blk == 0u { eo = ev; }
        if ev > eo {
            ao = a * exp2(f32(eo - ev));
            if li == 0u { atomicStore(&flag[blk % 2u], 1u); }
        }
        eo = ev;
        var sum = 0.0;
        for (var c = 0u; c < 16u; c++) {        // P's planes over the K rows, which S no longer reads
            var p = 0.0;
            if m != neg_inf() { p = exp2(x[c] - m); }
            let pp = p * 128.0;                  // p <= 256: the hi part below 2^15, the lo part
            let pt = hi_part(vec4<f32>(pp)).x;   // normal down to p = 2^-10
            kv[prow + c] = f16(pt);
            kv[BR * PS + prow + c] = f16(pp - pt);
            sum += p;
        }
        l = l * a + sum;
        if workgroupUniformLoad(&flag[blk % 2u]) != 0u {   // barrier: P complete, sc free
            o0 = rescale(o0, sid, li, ao);
            o1 = rescale(o1, sid, li, ao);
            o2 = rescale(o2, sid, li, ao);
            o3 = rescale(o3, sid, li, ao);
            if ND > 4u {
                o4 = rescale(o4, sid, li, ao);
                o5 = rescale(o5, sid, li, ao);
                o6 = rescale(o6, sid, li, ao);
                o7 = rescale(o7, sid, li, ao);
            }
        }
        // O += P V
        let p0 = ld_p(sid, 0u, 0u);
        let p1 = ld_p(sid, 16u, 0u);
        let p0l = ld_p(sid, 0u, 1u);
        let p1l = ld_p(sid, 16u, 1u);
        o0 = o_step(o0, p0, p1, p0l, p1l, 0u);
        o1 = o_step(o1, p0, p1, p0l, p1l, 1u);
        o2 = o_step(o2, p0, p1, p0l, p1l, 2u);
        o3 = o_step(o3, p0, p1, p0l, p1l, 3u);
        if ND > 4u {
            o4 = o_step(o4, p0, p1, p0l, p1l, 4u);
            o5 = o_step(o5, p0, p1, p0l, p1l, 5u);
            o6 = o_step(o6, p0, p1, p0l, p1l, 6u);
            o7 = o_step(o7, p0, p1, p0l, p1l, 7u);
        }
        workgroupBarrier();                     // kv read by every subgroup
        if more {
            ek = expo(atomicLoad(&bmax[2u * nx]));
            ev = max(ev, expo(atomicLoad(&bmax[2u * nx + 1u])));
            for (var n = 0u; n < NCH; n++) {
                put_block(li + n * WGS, pf[n], ek, ev);
            }
        }
    }
    // row sums: this half and its partner's
    workgroupBarrier();
    pm[li] = l;
    workgroupBarrier();
    let lt = l + pm[li ^ 1u];
    let f = select(0.0, 1.0 / lt, lt > 0.0) * exp2(f32(eo - 7));   // O's exponent, P's 2^7
    let ob = (b * H + h) * Lq * D;
    emit(o0, 0u, sid, li, f, ob, q0, Lq);
    emit(o1, 1u, sid, li, f, ob, q0, Lq);
    emit(o2, 2u, sid, li, f, ob, q0, Lq);
    emit(o3, 3u, sid, li, f, ob, q0, Lq);
    if ND > 4u {
        emit(o4, 4u, sid, li, f, ob, q0, Lq);
        emit(o5, 5u, sid, li, f, ob, q0, Lq);
        emit(o6, 6u, sid, li, f, ob, q0, Lq);
        emit(o7, 7u, sid, li, f, ob, q0, Lq);
    }
}
