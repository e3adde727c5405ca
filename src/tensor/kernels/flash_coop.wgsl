// flash_coop.wgsl - flash attention on tensor cores: f16 q, k, v, f32 softmax and accumulation,
// for wt_scaled_dot_product_attention with precision WT_ATTENTION_F16_TENSOR
// (src/tensor/attention_coop.c), through Dawn's chromium_experimental_subgroup_matrix extension.
//
// One workgroup of 4 subgroups (128 invocations) takes BR = 64 query rows of one (batch, head);
// subgroup s (@builtin(subgroup_id)) owns rows 16 s .. 16 s + 15.  Their Q rows are staged once
// through workgroup memory into D / 16 left matrices (16 x 16, registers).  The keys are walked in
// blocks of BC = 32: the whole workgroup stages the block's K and V rows (16-byte chunks, fetched
// into registers one block ahead) in `kv`, each subgroup computes its S = Q K^T (16 x 32, two f32
// accumulators over D / 16 steps; K^T is K read column-major) and stores it in `sc`; then every
// invocation takes half a row (16 scores): scale (times log2 e), causal mask, the row maximum
// with its partner's (through `pm`), P = exp2(S - m) rounded to f16 into `ps` and the row sum.
// The running maximum m of a row moves only when the block's maximum exceeds it by more than 8
// (so P <= 256 in f16, FA4's lazy rescaling); when any row of the workgroup moved (a workgroup-
// uniform flag, read with workgroupUniformLoad), each O accumulator goes through `sc` to have its
// rows multiplied by exp2(m_old - m_new).  O (16 x D per subgroup, D / 16 f32 accumulators) +=
// P V with P as two left matrices from `ps` and V rows from `kv`.  At the end O / l is written,
// one 16 x 16 accumulator at a time through `sc`; a row that sees no key gives zeros.
// Specialisation: MA 0 = D 64, 1 = D 128; MC bit 0 = causal (query i sees keys j <= i + Lk - Lq).
// q, k, v are read through strides P.st[0/2/4] (batch, head, row, d) with d contiguous and every
// stride and offset a multiple of 8 (attention_coop.c checks); rows past Lq / Lk read as zeros.
// P.shape[0] = (B, H, Lq, Lk), P.shape[1] = (D, H / Hkv, query blocks, -), P.sv.x = scale bits.
// H200, B1 H32 S4096 D128 causal f16 (`wgc bench llm`): 74.1-74.4 TFLOP/s, 243 registers.
// Every index stays inside its array by construction (kernel.c compiles this file without the
// compiler's bounds checks, as matmul_coop.wgsl).  kernel.c puts the `enable` in the prelude and
// flash_tc.wgsl (neg_inf, chunk, rescale, emit: shared with flash_x3.wgsl) after this file.

@group(0) @binding(0) var<storage, read_write> out: array<SO>;   // SO = f16
@group(0) @binding(1) var<storage, read> qb: array<vec4<u32>>;
@group(0) @binding(2) var<storage, read> kb: array<vec4<u32>>;
@group(0) @binding(3) var<storage, read> vb: array<vec4<u32>>;

const CAUSAL: bool = (MC & 1u) != 0u;
const D: u32 = select(64u, 128u, MA == 1u);
const ND: u32 = D / 16u;              // 16-wide slices of the head dim
const EPC: u32 = 8u;                  // elements per 16-byte chunk
const DC: u32 = D / EPC;              // 16-byte chunks per row
const BR: u32 = 64u;                  // query rows per workgroup
const BC: u32 = 32u;                  // keys per block
const WGS: u32 = 128u;
const KS: u32 = D + 8u;               // row stride of kv (padded by 16 bytes against bank conflicts)
const PS: u32 = BC + 8u;              // row stride of ps
const NCH: u32 = 2u * BC * DC / WGS;  // K and V chunks per invocation per block
const LOG2E: f32 = 1.4426950408889634;

var<workgroup> kv: array<f16, BR * KS>;        // Q rows (start), then K rows 0..31 and V rows 32..63
var<workgroup> sc: array<f32, 4u * 16u * BC>;  // S per subgroup (16 x 32), or one O accumulator each
var<workgroup> ps: array<f16, 4u * 16u * PS>;  // P per subgroup (16 x 32)
var<workgroup> pm: array<f32, WGS>;            // the half-row maxima, then the half-row sums
var<workgroup> flag: array<atomic<u32>, 4>;    // some row moved its maximum (by block parity; 16
                                                // bytes: every workgroup array is a multiple of 16
                                                // bytes, so the matrix rows stay 16-byte aligned
                                                // wherever the driver places the arrays)

alias Left = subgroup_matrix_left<f16, 16, 16>;
alias Right = subgroup_matrix_right<f16, 16, 16>;
alias Acc = subgroup_matrix_result<f32, 16, 16>;

fn put_kv(row: u32, c: u32, v: vec4<u32>) {
    let o = row * KS + c * 8u;
    let h0 = bitcast<vec2<f16>>(v.x);
    let h1 = bitcast<vec2<f16>>(v.y);
    let h2 = bitcast<vec2<f16>>(v.z);
    let h3 = bitcast<vec2<f16>>(v.w);
    kv[o] = h0.x; kv[o + 1u] = h0.y; kv[o + 2u] = h1.x; kv[o + 3u] = h1.y;
    kv[o + 4u] = h2.x; kv[o + 5u] = h2.y; kv[o + 6u] = h3.x; kv[o + 7u] = h3.y;
}

fn ld_q(sid: u32, i: u32) -> Left {
    return subgroupMatrixLoad<Left>(&kv, sid * 16u * KS + i * 16u, false, KS);
}

// K^T (head dims 16 i.., keys j0..): K rows read column-major
fn ld_kt(i: u32, j0: u32) -> Right {
    return subgroupMatrixLoad<Right>(&kv, j0 * KS + i * 16u, true, KS);
}

fn ld_v(j0: u32, i: u32) -> Right {
    return subgroupMatrixLoad<Right>(&kv, (BC + j0) * KS + i * 16u, false, KS);
}

fn ld_p(sid: u32, j0: u32) -> Left {
    return subgroupMatrixLoad<Left>(&ps, sid * 16u * PS + j0, false, PS);
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
    // Q rows into kv, then into left matrices
    for (var n = 0u; n < BR * DC / WGS; n++) {
        let j = li + n * WGS;
        put_kv(j / DC, j % DC, chunk(0u, b, h, q0 + j / DC, j % DC, Lq));
    }
    workgroupBarrier();
    let q0m = ld_q(sid, 0u);
    let q1m = ld_q(sid, 1u);
    let q2m = ld_q(sid, 2u);
    let q3m = ld_q(sid, 3u);
    var q4m = Left();
    var q5m = Left();
    var q6m = Left();
    var q7m = Left();
    if ND > 4u {
        q4m = ld_q(sid, 4u);
        q5m = ld_q(sid, 5u);
        q6m = ld_q(sid, 6u);
        q7m = ld_q(sid, 7u);
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
    let prow = (R / 16u) * 16u * PS + (R % 16u) * PS + hh * 16u;
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
    var pf: array<vec4<u32>, NCH>;
    for (var n = 0u; n < NCH; n++) {            // block 0: K rows 0..31, V rows 32..63 of kv
        let j = li + n * WGS;
        let row = j / DC;
        pf[n] = chunk(select(1u, 2u, row >= BC), b, hk, row % BC, j % DC, Lk);
    }
    if li < 2u { atomicStore(&flag[li], 0u); }
    workgroupBarrier();                         // Q matrices loaded: kv is free
    for (var n = 0u; n < NCH; n++) {
        let j = li + n * WGS;
        put_kv(j / DC, j % DC, pf[n]);
    }
    for (var blk = 0u; blk < nblk; blk++) {
        let k0 = blk * BC;
        let more = blk + 1u < nblk;
        if more {                               // next block into registers
            for (var n = 0u; n < NCH; n++) {
                let j = li + n * WGS;
                let row = j / DC;
                pf[n] = chunk(select(1u, 2u, row >= BC), b, hk, k0 + BC + row % BC, j % DC, Lk);
            }
        }
        workgroupBarrier();                     // kv holds this block
        // S = Q K^T
        var s0 = Acc();
        var s1 = Acc();
        s0 = subgroupMatrixMultiplyAccumulate(q0m, ld_kt(0u, 0u), s0);
        s1 = subgroupMatrixMultiplyAccumulate(q0m, ld_kt(0u, 16u), s1);
        s0 = subgroupMatrixMultiplyAccumulate(q1m, ld_kt(1u, 0u), s0);
        s1 = subgroupMatrixMultiplyAccumulate(q1m, ld_kt(1u, 16u), s1);
        s0 = subgroupMatrixMultiplyAccumulate(q2m, ld_kt(2u, 0u), s0);
        s1 = subgroupMatrixMultiplyAccumulate(q2m, ld_kt(2u, 16u), s1);
        s0 = subgroupMatrixMultiplyAccumulate(q3m, ld_kt(3u, 0u), s0);
        s1 = subgroupMatrixMultiplyAccumulate(q3m, ld_kt(3u, 16u), s1);
        if ND > 4u {
            s0 = subgroupMatrixMultiplyAccumulate(q4m, ld_kt(4u, 0u), s0);
            s1 = subgroupMatrixMultiplyAccumulate(q4m, ld_kt(4u, 16u), s1);
            s0 = subgroupMatrixMultiplyAccumulate(q5m, ld_kt(5u, 0u), s0);
            s1 = subgroupMatrixMultiplyAccumulate(q5m, ld_kt(5u, 16u), s1);
            s0 = subgroupMatrixMultiplyAccumulate(q6m, ld_kt(6u, 0u), s0);
            s1 = subgroupMatrixMultiplyAccumulate(q6m, ld_kt(6u, 16u), s1);
            s0 = subgroupMatrixMultiplyAccumulate(q7m, ld_kt(7u, 0u), s0);
            s1 = subgroupMatrixMultiplyAccumulate(q7m, ld_kt(7u, 16u), s1);
        }
        subgroupMatrixStore(&sc, sid * 16u * BC, s0, false, BC);
        subgroupMatrixStore(&sc, sid * 16u * BC + 16u, s1, false, BC);
        workgroupBarrier();
        // the half row: scale, mask, maximum
        var x: array<f32, 16>;
        var mx = neg_inf();
        for (var c = 0u; c < 16u; c++) {
            let j = k0 + hh * 16u + c;
            var v = sc[srow + c] * scale;
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
        var sum = 0.0;
        for (var c = 0u; c < 16u; c++) {
            var p = 0.0;
            if m != neg_inf() { p = exp2(x[c] - m); }
            let ph = f16(p);
            ps[prow + c] = ph;
            sum += f32(ph);
        }
        l = l * a + sum;
        if workgroupUniformLoad(&flag[blk % 2u]) != 0u {   // barrier: ps complete, sc free
            o0 = rescale(o0, sid, li, a);
            o1 = rescale(o1, sid, li, a);
            o2 = rescale(o2, sid, li, a);
            o3 = rescale(o3, sid, li, a);
            if ND > 4u {
                o4 = rescale(o4, sid, li, a);
                o5 = rescale(o5, sid, li, a);
                o6 = rescale(o6, sid, li, a);
                o7 = rescale(o7, sid, li, a);
            }
        }
        // O += P V
        let p0 = ld_p(sid, 0u);
        let p1 = ld_p(sid, 16u);
        o0 = subgroupMatrixMultiplyAccumulate(p0, ld_v(0u, 0u), o0);
        o0 = subgroupMatrixMultiplyAccumulate(p1, ld_v(16u, 0u), o0);
        o1 = subgroupMatrixMultiplyAccumulate(p0, ld_v(0u, 1u), o1);
        o1 = subgroupMatrixMultiplyAccumulate(p1, ld_v(16u, 1u), o1);
        o2 = subgroupMatrixMultiplyAccumulate(p0, ld_v(0u, 2u), o2);
        o2 = subgroupMatrixMultiplyAccumulate(p1, ld_v(16u, 2u), o2);
        o3 = subgroupMatrixMultiplyAccumulate(p0, ld_v(0u, 3u), o3);
        o3 = subgroupMatrixMultiplyAccumulate(p1, ld_v(16u, 3u), o3);
        if ND > 4u {
            o4 = subgroupMatrixMultiplyAccumulate(p0, ld_v(0u, 4u), o4);
            o4 = subgroupMatrixMultiplyAccumulate(p1, ld_v(16u, 4u), o4);
            o5 = subgroupMatrixMultiplyAccumulate(p0, ld_v(0u, 5u), o5);
            o5 = subgroupMatrixMultiplyAccumulate(p1, ld_v(16u, 5u), o5);
            o6 = subgroupMatrixMultiplyAccumulate(p0, ld_v(0u, 6u), o6);
            o6 = subgroupMatrixMultiplyAccumulate(p1, ld_v(16u, 6u), o6);
            o7 = subgroupMatrixMultiplyAccumulate(p0, ld_v(0u, 7u), o7);
            o7 = subgroupMatrixMultiplyAccumulate(p1, ld_v(16u, 7u), o7);
        }
        workgroupBarrier();                     // kv, ps read by every subgroup
        if more {
            for (var n = 0u; n < NCH; n++) {
                let j = li + n * WGS;
                put_kv(j / DC, j % DC, pf[n]);
            }
        }
    }
    // row sums: this half and its partner's
    workgroupBarrier();
    pm[li] = l;
    workgroupBarrier();
    let lt = l + pm[li ^ 1u];
    let inv_l = select(0.0, 1.0 / lt, lt > 0.0);
    let ob = (b * H + h) * Lq * D;
    emit(o0, 0u, sid, li, inv_l, ob, q0, Lq);
    emit(o1, 1u, sid, li, inv_l, ob, q0, Lq);
    emit(o2, 2u, sid, li, inv_l, ob, q0, Lq);
    emit(o3, 3u, sid, li, inv_l, ob, q0, Lq);
    if ND > 4u {
        emit(o4, 4u, sid, li, inv_l, ob, q0, Lq);
        emit(o5, 5u, sid, li, inv_l, ob, q0, Lq);
        emit(o6, 6u, sid, li, inv_l, ob, q0, Lq);
        emit(o7, 7u, sid, li, inv_l, ob, q0, Lq);
    }
}
