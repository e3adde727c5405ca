// matmul_coop.wgsl - f16 x f16 -> f16 matrix product on tensor cores, accumulating in f32, for
// wt_matmul_ex with WT_MATMUL_F16_TENSOR (src/tensor/matmul.c), through Dawn's
// chromium_experimental_subgroup_matrix extension (lowered to VK_KHR_cooperative_matrix).
//
// A workgroup computes a 128 x 128 tile of out = A . B with 4 subgroups of 32 invocations
// (matmul.c takes this path only where the subgroup size is 32 and the device has 16 x 16 x 16
// f16 -> f32 subgroup shapes); subgroup s (@builtin(subgroup_id), uniform within its subgroup as
// Tint's uniformity rules require of subgroup-matrix arguments) owns the 64 x 64 block at row
// (s / 2) * 64, column (s % 2) * 64 as 4 x 4 accumulators of 16 x 16.  Along K the workgroup
// stages 32-deep slices of A and B in workgroup memory.  OP 0 (coop128x128) double-buffers them:
// every invocation loads its 16-byte chunks (8 halves, a vec4<u32>) of slice t + 1 into
// registers before the subgroups multiply slice t, then stores them into the other buffer; one
// barrier per slice.  OP 1 (coop128x128s, SB1) keeps one buffer: store slice t from the
// registers, barrier, load slice t + 1 into the registers, multiply slice t, barrier; so the
// global loads have a whole slice of multiplies to arrive in, and the workgroup needs 24 KiB or
// less (NVIDIA's driver puts two workgroups on an SM only at <= 24576 bytes each).  Each slice is
// kept in the operand's own layout (A row-major (MA 0): 128 rows of 32, A column-major (MA 1): 32
// rows of 128; B row-major (MB 0): 32 rows of 128, column-major (MB 1): 128 rows of 32), rows
// padded by 8 halves (16 bytes) so that the 8 rows one matrix load touches fall in distinct
// banks, and read back with subgroupMatrixLoad's col_major flag.  A (m, k) is
// a[P.off.x + m * P.aux.x + k] (MA 0) or a[P.off.x + m + k * P.aux.x] (MA 1); B (k, n) is
// b[P.off.y + k * P.aux.y + n] (MB 0) or b[P.off.y + k + n * P.aux.y] (MB 1); offsets and
// leading dimensions are multiples of 8 (matmul.c, coop_ok).  P.sv = (M, N, K, tiles along N).
// Chunks with a row or k past the matrix are not read (zeros are staged), so ragged M, N and K (a
// multiple of 16) need no robust access; a chunk starting inside the matrix may run past M or N
// by up to 7 elements, which matmul.c keeps inside the storage and which reach only outputs that
// are not written.  Workgroups walk the tiles in bands of 8 tile rows (L2 reuse of B).  The f32
// accumulators go through a per-subgroup 16 x 16 workgroup buffer to be rounded to f16 and
// written with bounds checks, plus the bias when MC is 1 (c[P.off.z + n * P.st[4].x]).  kernel.c
// puts the `enable` in the prelude.
//
// H200, f16 4096^3 (test_matmul_coop, WGC_COOP_BENCH=1): OP 1 219.1 TFLOP/s, A^T 250.6 (`wgc
// bench nn`: 229.5 against cuBLAS f16 746.5); matmul.c takes it where there are at least 528
// tiles (four waves of the GPU), OP 0 on fewer tiles (OP 1 is unmeasured there).  The retired
// variants and the rounds of measurements behind this layout: doc/results/2026-11-28-retired-matmul.md.

@group(0) @binding(0) var<storage, read_write> out: array<SO>;
@group(0) @binding(1) var<storage, read> a: array<vec4<u32>>;
@group(0) @binding(2) var<storage, read> b: array<vec4<u32>>;
@group(0) @binding(3) var<storage, read> c: array<SC>;

const ACM: bool = MA == 1u;           // A column-major
const BCM: bool = MB == 1u;           // B column-major
const TM: u32 = 128u;                 // tile rows
const TN: u32 = 128u;                 // tile columns
const BK: u32 = 32u;                  // slice depth
const WN: u32 = 64u;                  // a subgroup block's columns
const SB1: bool = OP == 1u;           // one slice buffer, two barriers per slice
const NBUF: u32 = select(2u, 1u, SB1);
const SGN: u32 = TN / WN;             // subgroups along N
const NSG: u32 = (TM / 64u) * SGN;    // subgroups per workgroup
const WGS: u32 = NSG * 32u;           // invocations per workgroup
const PAD: u32 = 8u;
// A slice: AR rows of AC halves (stride AS); B slice: BR rows of BC halves (stride BS)
const AR: u32 = select(TM, BK, ACM);
const AC: u32 = select(BK, TM, ACM);
const AS: u32 = AC + PAD;
const BR: u32 = select(BK, TN, BCM);
const BC: u32 = select(TN, BK, BCM);
const BS: u32 = BC + PAD;
const ALEN: u32 = AR * AS;
const BLEN: u32 = BR * BS;
const NA: u32 = AR * AC / 8u / WGS;   // 16-byte chunks per invocation per slice
const NB: u32 = BR * BC / 8u / WGS;
const EPS: u32 = NSG;                 // subgroups whose accumulators go through the scratch at once

var<workgroup> sa: array<f16, NBUF * ALEN>;
var<workgroup> sb: array<f16, NBUF * BLEN>;
var<workgroup> scratch: array<f32, EPS * 256>;

alias Left = subgroup_matrix_left<f16, 16, 16>;
alias Right = subgroup_matrix_right<f16, 16, 16>;
alias Acc = subgroup_matrix_result<f32, 16, 16>;

// Slice row and chunk column of A's chunk j.  A row-major slice 32 deep has 4 chunks a row and rows
// 20 banks apart, so lanes 8q..8q+7 of each 32 take rows q and q + 4 (4 chunks each): each quarter
// subgroup's 16-byte stores fall in 8 distinct bank groups, where 2 consecutive rows share one.
fn amap(j: u32) -> vec2<u32> {
    if ACM || AC != 32u { return vec2<u32>(j / (AC / 8u), j % (AC / 8u)); }
    let l = j % 32u;
    return vec2<u32>((j / 32u) * 8u + l / 8u + 4u * ((l % 8u) / 4u), l % 4u);
}

// Chunk j of a slice with `cols` halves per row, whose first row / column lie at (r0, c0) of a
// matrix of `rows` x `ncols` with leading dimension ld at element off: its 8 halves, or zeros when
// its row or first column is outside.
fn chunk_a(j: u32, r0: u32, c0: u32, rows: u32, ncols: u32) -> vec4<u32> {
    let rc = amap(j);
    let r = r0 + rc.x;
    let cc = c0 + rc.y * 8u;
    if r >= rows || cc >= ncols { return vec4<u32>(); }
    return a[(P.off.x + r * P.aux.x + cc) / 8u];
}

fn chunk_b(j: u32, r0: u32, c0: u32, rows: u32, ncols: u32) -> vec4<u32> {
    let r = r0 + j / (BC / 8u);
    let cc = c0 + (j % (BC / 8u)) * 8u;
    if r >= rows || cc >= ncols { return vec4<u32>(); }
    return b[(P.off.y + r * P.aux.y + cc) / 8u];
}

fn put_a(base: u32, j: u32, v: vec4<u32>) {
    let rc = amap(j);
    let o = base + rc.x * AS + rc.y * 8u;
    let h0 = bitcast<vec2<f16>>(v.x);
    let h1 = bitcast<vec2<f16>>(v.y);
    let h2 = bitcast<vec2<f16>>(v.z);
    let h3 = bitcast<vec2<f16>>(v.w);
    sa[o] = h0.x; sa[o + 1u] = h0.y; sa[o + 2u] = h1.x; sa[o + 3u] = h1.y;
    sa[o + 4u] = h2.x; sa[o + 5u] = h2.y; sa[o + 6u] = h3.x; sa[o + 7u] = h3.y;
}

fn put_b(base: u32, j: u32, v: vec4<u32>) {
    let o = base + (j / (BC / 8u)) * BS + (j % (BC / 8u)) * 8u;
    let h0 = bitcast<vec2<f16>>(v.x);
    let h1 = bitcast<vec2<f16>>(v.y);
    let h2 = bitcast<vec2<f16>>(v.z);
    let h3 = bitcast<vec2<f16>>(v.w);
    sb[o] = h0.x; sb[o + 1u] = h0.y; sb[o + 2u] = h1.x; sb[o + 3u] = h1.y;
    sb[o + 4u] = h2.x; sb[o + 5u] = h2.y; sb[o + 6u] = h3.x; sb[o + 7u] = h3.y;
}

// Left matrix of rows m.. m+15, k.. k+15 of the slice in buffer `base` (uniform in the subgroup).
fn ld_a(base: u32, m: u32, k: u32) -> Left {
    return subgroupMatrixLoad<Left>(&sa, select(base + m * AS + k, base + k * AS + m, ACM), ACM, AS);
}

fn ld_b(base: u32, k: u32, n: u32) -> Right {
    return subgroupMatrixLoad<Right>(&sb, select(base + k * BS + n, base + n * BS + k, BCM), BCM, BS);
}

// Accumulator (i, j) of every subgroup to out, through the workgroup buffer, EPS subgroups at a
// time; called by the whole workgroup in uniform control flow.
fn put(v: Acc, i: u32, j: u32, sid: u32, m0: u32, n0: u32, li: u32) {
    let M = P.sv.x;
    let N = P.sv.y;
    for (var g = 0u; g < NSG / EPS; g++) {
        workgroupBarrier();
        if sid / EPS == g { subgroupMatrixStore(&scratch, (sid % EPS) * 256u, v, false, 16u); }
        workgroupBarrier();
        for (var e = li; e < EPS * 256u; e += WGS) {
            let s = g * EPS + e / 256u;
            let l = e % 256u;
            let m = m0 + (s / SGN) * 64u + i * 16u + l / 16u;
            let n = n0 + (s % SGN) * WN + j * 16u + l % 16u;
            if m < M && n < N {
                var x = scratch[e];
                if MC == 1u { x += f32(c[P.off.z + n * u32(P.st[4].x)]); }
                out[m * N + n] = SO(x);
            }
        }
    }
}

// The 16 accumulators are separate variables and every multiply is written out, so that they
// stay in registers (an indexed array of them could live in local memory).
@compute @workgroup_size(WGS)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) li: u32,
        @builtin(subgroup_id) sid: u32) {
    let M = P.sv.x;
    let N = P.sv.y;
    let K = P.sv.z;
    let tiles_n = P.sv.w;
    let tiles_m = (M + TM - 1u) / TM;
    let t = wid.y * P.gx + wid.x;
    if t >= tiles_m * tiles_n { return; }
    // bands of 8 tile rows, walked column by column inside a band
    let band = t / (8u * tiles_n);
    let rows = min(tiles_m - band * 8u, 8u);
    let r = t - band * 8u * tiles_n;
    let m0 = (band * 8u + r % rows) * TM;
    let n0 = (r / rows) * TN;
    let wm = (sid / SGN) * 64u;
    let wn = (sid % SGN) * WN;
    // slice origins: A (row, col) = (m, k) or (k, m); B = (k, n) or (n, k)
    let a_rows = select(M, K, ACM);
    let a_cols = select(K, M, ACM);
    let b_rows = select(K, N, BCM);
    let b_cols = select(N, K, BCM);
    var ra: array<vec4<u32>, NA>;
    var rb: array<vec4<u32>, NB>;
    for (var q = 0u; q < NA; q++) {
        let j = li + q * WGS;
        ra[q] = chunk_a(j, select(m0, 0u, ACM), select(0u, m0, ACM), a_rows, a_cols);
    }
    for (var q = 0u; q < NB; q++) {
        let j = li + q * WGS;
        rb[q] = chunk_b(j, select(0u, n0, BCM), select(n0, 0u, BCM), b_rows, b_cols);
    }
    if !SB1 {
        for (var q = 0u; q < NA; q++) { put_a(0u, li + q * WGS, ra[q]); }
        for (var q = 0u; q < NB; q++) { put_b(0u, li + q * WGS, rb[q]); }
        workgroupBarrier();
    }
    var c00 = Acc();
    var c01 = Acc();
    var c02 = Acc();
    var c03 = Acc();
    var c10 = Acc();
    var c11 = Acc();
    var c12 = Acc();
    var c13 = Acc();
    var c20 = Acc();
    var c21 = Acc();
    var c22 = Acc();
    var c23 = Acc();
    var c30 = Acc();
    var c31 = Acc();
    var c32 = Acc();
    var c33 = Acc();
    let nt = (K + BK - 1u) / BK;
    for (var kt = 0u; kt < nt; kt++) {
        let cur = select(kt % 2u, 0u, SB1);
        let more = kt + 1u < nt;
        if SB1 {                                // slice kt from registers into the one buffer
            for (var q = 0u; q < NA; q++) { put_a(0u, li + q * WGS, ra[q]); }
            for (var q = 0u; q < NB; q++) { put_b(0u, li + q * WGS, rb[q]); }
            workgroupBarrier();
        }
        if more {                               // next slice into registers
            let k1 = (kt + 1u) * BK;
            for (var q = 0u; q < NA; q++) {
                let j = li + q * WGS;
                ra[q] = chunk_a(j, select(m0, k1, ACM), select(k1, m0, ACM), a_rows, a_cols);
            }
            for (var q = 0u; q < NB; q++) {
                let j = li + q * WGS;
                rb[q] = chunk_b(j, select(k1, n0, BCM), select(n0, k1, BCM), b_rows, b_cols);
            }
        }
        let abase = cur * ALEN;
        let bbase = cur * BLEN;
        for (var kk = 0u; kk < BK; kk += 16u) {
            let a0 = ld_a(abase, wm, kk);
            let a1 = ld_a(abase, wm + 16u, kk);
            let a2 = ld_a(abase, wm + 32u, kk);
            let a3 = ld_a(abase, wm + 48u, kk);
            var bm = ld_b(bbase, kk, wn);
            c00 = subgroupMatrixMultiplyAccumulate(a0, bm, c00);
            c10 = subgroupMatrixMultiplyAccumulate(a1, bm, c10);
            c20 = subgroupMatrixMultiplyAccumulate(a2, bm, c20);
            c30 = subgroupMatrixMultiplyAccumulate(a3, bm, c30);
            bm = ld_b(bbase, kk, wn + 16u);
            c01 = subgroupMatrixMultiplyAccumulate(a0, bm, c01);
            c11 = subgroupMatrixMultiplyAccumulate(a1, bm, c11);
            c21 = subgroupMatrixMultiplyAccumulate(a2, bm, c21);
            c31 = subgroupMatrixMultiplyAccumulate(a3, bm, c31);
            if WN > 32u {
                bm = ld_b(bbase, kk, wn + 32u);
                c02 = subgroupMatrixMultiplyAccumulate(a0, bm, c02);
                c12 = subgroupMatrixMultiplyAccumulate(a1, bm, c12);
                c22 = subgroupMatrixMultiplyAccumulate(a2, bm, c22);
                c32 = subgroupMatrixMultiplyAccumulate(a3, bm, c32);
                bm = ld_b(bbase, kk, wn + 48u);
                c03 = subgroupMatrixMultiplyAccumulate(a0, bm, c03);
                c13 = subgroupMatrixMultiplyAccumulate(a1, bm, c13);
                c23 = subgroupMatrixMultiplyAccumulate(a2, bm, c23);
                c33 = subgroupMatrixMultiplyAccumulate(a3, bm, c33);
            }
        }
        if more && !SB1 {                       // the other buffer: last read before the previous barrier
            let nxt = 1u - cur;
            for (var q = 0u; q < NA; q++) { put_a(nxt * ALEN, li + q * WGS, ra[q]); }
            for (var q = 0u; q < NB; q++) { put_b(nxt * BLEN, li + q * WGS, rb[q]); }
        }
        workgroupBarrier();
    }
    put(c00, 0u, 0u, sid, m0, n0, li);
    put(c01, 0u, 1u, sid, m0, n0, li);
    put(c10, 1u, 0u, sid, m0, n0, li);
    put(c11, 1u, 1u, sid, m0, n0, li);
    put(c20, 2u, 0u, sid, m0, n0, li);
    put(c21, 2u, 1u, sid, m0, n0, li);
    put(c30, 3u, 0u, sid, m0, n0, li);
    put(c31, 3u, 1u, sid, m0, n0, li);
    if WN > 32u {
        put(c02, 0u, 2u, sid, m0, n0, li);
        put(c03, 0u, 3u, sid, m0, n0, li);
        put(c12, 1u, 2u, sid, m0, n0, li);
        put(c13, 1u, 3u, sid, m0, n0, li);
        put(c22, 2u, 2u, sid, m0, n0, li);
        put(c23, 2u, 3u, sid, m0, n0, li);
        put(c32, 3u, 2u, sid, m0, n0, li);
        put(c33, 3u, 3u, sid, m0, n0, li);
    }
}
