// matmul4.wgsl - the 16-byte tiled product of matmul3.wgsl (same bindings, Params and
// preconditions: A row-major or m-contiguous, B row-major or k-contiguous, their contiguous runs,
// offsets and batch strides quad-aligned, K and N multiples of 4, M too for m-contiguous A;
// src/tensor/matmul.c checks) with unpadded, swizzled workgroup tiles and K steps of 8.
//
// OP bit 2 (EXACT): set by matmul.c only when M % 128 == 0, N % TN == 0 and K % 8 == 0; then
// every row, column and k a tile touches lies inside the operands' views (tiles start at
// multiples of the tile size and the views are valid tensors), so the loads need no range select
// and the module is compiled without index clamping (kernel.c build()).  Bit 3 (HALF): 128
// invocations (8 x 4 per warp, 4 warps) on 128 x 64 tiles, the same 8 x 8 outputs per
// invocation.  Workgroup memory: 16 KiB (128 x 128), 12 KiB (HALF).
//
// 256 invocations (HALF: 128), 8 x 4 per warp (matmul2.wgsl's WARP8): invocation (tx, ty) owns
// rows 4 ty .. 4 ty + 3 and 64 + 4 ty .. and column quads tx and tx + QS.  A's tile is k-major,
// As[buffer * BK + k][quad of 4 rows], stored transposed from vec4 runs along k (four scalar
// stores); its quad index is XORed with swz(k) = (k / 4) * (32 / BK) (< 8), which spreads the
// scalar stores of a warp (BK / 4 k-groups x 32 / BK quads) over all 32 banks and keeps a
// warp's reads (4 quads of one aligned group of 8) conflict-free.  B's tile is n-major rows of
// TN / 4 quads, stored and read as contiguous vec4 runs (no padding needed).
//
// Transposed operands are read in place (MA / MB, key.mode[0..1] in matmul.c): BT (MB == 1, B
// k-contiguous: x . W^T with W [N, K] row-major, wt_linear) loads B's tile exactly as A's, vec4
// runs along k of column n stored transposed with four scalar stores, its quad index XORed with
// the same swz(k) (QN >= 16 quads per row: the same bank argument; the reads Bs[k][tx ^ swz]
// stay within an aligned group of 8 quads).  AT (MA == 1, A m-contiguous: A^T views, M a
// multiple of 4) loads A's tile as row-major B's: vec4 runs along m of row k stored whole at
// As[k][quad ^ swz(k)].  The next K step is loaded into registers while the current one is
// multiplied (two buffers, one barrier per step); the step is unrolled through calls with
// constant rows (matmul2.wgsl).
//
// H200 (GPU timestamps): 128 x 128 EXACT (tile128x128v4s, matmul.c's default for tile-exact
// 16-byte products) 4096^3 3.39 ms = 42.1 TFLOP/s, 0.82 of cuBLAS (matmul3's tile128x128v4w
// 3.98 ms).  HALF (tile128x64v4s, a tuner candidate): A^T . B 4096^3 2.90 ms against 3.16 for
// 128 x 128.

@group(0) @binding(0) var<storage, read_write> out: array<vec4<SO>>;
@group(0) @binding(1) var<storage, read> a: array<vec4<SA>>;
@group(0) @binding(2) var<storage, read> b: array<vec4<SB>>;
@group(0) @binding(3) var<storage, read> c: array<SC>;

const EXACT: bool = (OP & 4u) != 0u;
const HALF: bool = (OP & 8u) != 0u;            // 128 invocations, 128 x 64 tiles
const BT: bool = MB == 1u;                     // B k-contiguous (x . W^T): tile loaded as A's
const AT: bool = MA == 1u;                     // A m-contiguous (A^T view): tile loaded as B's
const NT: u32 = select(256u, 128u, HALF);      // invocations per workgroup
const BK: u32 = 8u;                            // K step
const TM: u32 = 128u;                          // tile rows
const TN: u32 = select(128u, 64u, HALF);       // tile columns
const QM: u32 = TM / 4u;                       // quads per A tile row (32)
const QN: u32 = TN / 4u;                       // quads per B tile row
const QS: u32 = select(16u, 8u, HALF);         // step between an invocation's column quads
const SLA: u32 = TM * BK / 4u;                 // vec4 load slots per step (256)
const SLB: u32 = TN * BK / 4u;

var<workgroup> As: array<array<vec4<f32>, QM>, 2u * BK>;   // [buffer * BK + k][quad ^ swz(k)]
var<workgroup> Bs: array<array<vec4<f32>, QN>, 2u * BK>;   // [buffer * BK + k][quad ^ swzb(k)]

var<private> tx: u32;
var<private> ty: u32;
// c<r><j>: output row r (0..3: 4 ty + r, 4..7: 64 + 4 ty + r - 4), column quad tx + QS j
var<private> c00: vec4<f32>; var<private> c01: vec4<f32>;
var<private> c10: vec4<f32>; var<private> c11: vec4<f32>;
var<private> c20: vec4<f32>; var<private> c21: vec4<f32>;
var<private> c30: vec4<f32>; var<private> c31: vec4<f32>;
var<private> c40: vec4<f32>; var<private> c41: vec4<f32>;
var<private> c50: vec4<f32>; var<private> c51: vec4<f32>;
var<private> c60: vec4<f32>; var<private> c61: vec4<f32>;
var<private> c70: vec4<f32>; var<private> c71: vec4<f32>;

fn swz(row: u32) -> u32 { return ((row % BK) / 4u) * (32u / BK); }
fn swzb(row: u32) -> u32 { return select(0u, swz(row), BT); }

// One k of the tile in buffer row `row` (a constant at every call).
fn step(row: u32) {
    let qa = ty ^ swz(row);
    let qb = tx ^ swzb(row);
    let a0 = As[row][qa];
    let a1 = As[row][qa + 16u];
    let b0 = Bs[row][qb];
    let b1 = Bs[row][qb + QS];
    c00 = fma(vec4<f32>(a0.x), b0, c00);
    c10 = fma(vec4<f32>(a0.y), b0, c10);
    c20 = fma(vec4<f32>(a0.z), b0, c20);
    c30 = fma(vec4<f32>(a0.w), b0, c30);
    c40 = fma(vec4<f32>(a1.x), b0, c40);
    c50 = fma(vec4<f32>(a1.y), b0, c50);
    c60 = fma(vec4<f32>(a1.z), b0, c60);
    c70 = fma(vec4<f32>(a1.w), b0, c70);
    c01 = fma(vec4<f32>(a0.x), b1, c01);
    c11 = fma(vec4<f32>(a0.y), b1, c11);
    c21 = fma(vec4<f32>(a0.z), b1, c21);
    c31 = fma(vec4<f32>(a0.w), b1, c31);
    c41 = fma(vec4<f32>(a1.x), b1, c41);
    c51 = fma(vec4<f32>(a1.y), b1, c51);
    c61 = fma(vec4<f32>(a1.z), b1, c61);
    c71 = fma(vec4<f32>(a1.w), b1, c71);
}

// The whole K step of buffer `buf` (a constant at every call).
fn tile(buf: u32) {
    let r = buf * BK;
    step(r); step(r + 1u); step(r + 2u); step(r + 3u);
    step(r + 4u); step(r + 5u); step(r + 6u); step(r + 7u);
}

// A quad along k at element index i (a multiple of 4) of row r, k .. k + 3; B quad along n at
// element index i of row k, columns n .. n + 3 (BT: along k at column n, k .. k + 3).  Zero
// outside the matrix unless EXACT.
fn lda4(i: u32, r: u32, k: u32) -> vec4<f32> {
    let v = vec4<f32>(a[i / 4u]);
    if EXACT { return v; }
    return select(vec4<f32>(0.0), v, vec4<bool>(r < P.sv.x && k < P.sv.z));
}

fn ldb4(i: u32, n: u32, k: u32) -> vec4<f32> {
    let v = vec4<f32>(b[i / 4u]);
    if EXACT { return v; }
    return select(vec4<f32>(0.0), v, vec4<bool>(n < P.sv.y && k < P.sv.z));
}

// Transposed store of A's quad along k (k0 = buffer * BK + k within the step, row m of the tile).
fn sta(k0: u32, m: u32, v: vec4<f32>) {
    let q = (m / 4u) ^ swz(k0);
    let e = m % 4u;
    As[k0][q][e] = v.x;
    As[k0 + 1u][q][e] = v.y;
    As[k0 + 2u][q][e] = v.z;
    As[k0 + 3u][q][e] = v.w;
}

// A slot's quad into buffer row kbuf (0 or BK): k-run kq .. kq + 3 of row m, stored transposed;
// AT: a quad along m (m .. m + 3) of row kq, stored as it is.
fn sta_slot(kbuf: u32, kq: u32, m: u32, v: vec4<f32>) {
    if AT {
        As[kbuf + kq][(m / 4u) ^ swz(kq)] = v;
    } else {
        sta(kbuf + kq, m, v);
    }
}

// BT: the same transposed, swizzled store of B's quad along k (column n of the tile).
fn stbt(k0: u32, n: u32, v: vec4<f32>) {
    let q = (n / 4u) ^ swz(k0);
    let e = n % 4u;
    Bs[k0][q][e] = v.x;
    Bs[k0 + 1u][q][e] = v.y;
    Bs[k0 + 2u][q][e] = v.z;
    Bs[k0 + 3u][q][e] = v.w;
}

// A B slot's quad into buffer row kbuf (0 or BK).
fn stb(kbuf: u32, kb: u32, qb: u32, nl: u32, v: vec4<f32>) {
    if BT {
        stbt(kbuf + kb, nl, v);
    } else {
        Bs[kbuf + kb][qb] = v;
    }
}


// Stores the 4 outputs of row m from column n0 on (one vec4; N is a multiple of 4), bias added.
fn st4(ob: u32, m: u32, n0: u32, v: vec4<f32>) {
    let M = P.sv.x;
    let N = P.sv.y;
    if !EXACT && (m >= M || n0 >= N) { return; }
    var x = v;
    if MC == 1u {
        let bs = u32(P.st[4].x);
        let o = P.off.z + n0 * bs;
        x = x + vec4<f32>(f32(c[o]), f32(c[o + bs]), f32(c[o + 2u * bs]), f32(c[o + 3u * bs]));
    }
    out[(ob + m * N + n0) / 4u] = vec4<SO>(x);
}

// The four rows of column quad j (column n).
fn st_col(ob: u32, m0: u32, n: u32, r0: vec4<f32>, r1: vec4<f32>, r2: vec4<f32>, r3: vec4<f32>,
          r4: vec4<f32>, r5: vec4<f32>, r6: vec4<f32>, r7: vec4<f32>) {
    st4(ob, m0, n, r0);
    st4(ob, m0 + 1u, n, r1);
    st4(ob, m0 + 2u, n, r2);
    st4(ob, m0 + 3u, n, r3);
    st4(ob, m0 + 64u, n, r4);
    st4(ob, m0 + 65u, n, r5);
    st4(ob, m0 + 66u, n, r6);
    st4(ob, m0 + 67u, n, r7);
}

@compute @workgroup_size(NT)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) t: u32) {
    let M = P.sv.x;
    let N = P.sv.y;
    let K = P.sv.z;
    let mt = mm_tile(wid.y * P.gx + wid.x);
    if !mt.live { return; }
    let tm = mt.tm;
    let tn = mt.tn;
    let oa = mt.oa;
    let ob = mt.ob;
    let oo = mt.bi * M * N;
    let w = t / 32u;
    let l = t % 32u;
    if HALF {
        tx = l % 8u;
        ty = w * 4u + l / 8u;
    } else {
        tx = (w % 2u) * 8u + l % 8u;
        ty = (w / 2u) * 4u + l / 8u;
    }

    let ars = P.aux.x;
    let bks = P.aux.z;
    let bns = P.aux.w;
    // A slot s (t, and t + NT when SLA > NT): row s / (BK / 4) of the tile, k quad s % (BK / 4)
    // (AT: as B's, k s / QM, quad along m s % QM.)  A K step moves A's index by astep * K-step.
    let aks = P.aux.y;
    let ka = 4u * (t % (BK / 4u));
    let ka0 = select(ka, t / QM, AT);
    let ka1 = select(ka, (t + NT) / QM, AT);
    let ml0 = select(t / (BK / 4u), 4u * (t % QM), AT);
    let ml1 = select(ml0 + NT / (BK / 4u), 4u * (t % QM), AT);   // the second slot
    let ra0 = tm * TM + ml0;
    let ra1 = tm * TM + ml1;
    let ia0 = oa + select(ra0 * ars + ka, ka0 * aks + ra0, AT);
    let ia1 = oa + select(ra1 * ars + ka, ka1 * aks + ra1, AT);
    let astep = select(1u, aks, AT);
    // B slot s (t, and t + NT when SLB > NT): row s / QN, quad s % QN; BT: as A's, column
    // nl = s / (BK / 4) of the tile, k quad s % (BK / 4).  A K step moves B's index by
    // bstep = K-step * b_ks (BT: b_ks = 1).
    let qb0 = t % QN;
    let qb1 = (t + NT) % QN;
    let nl0 = t / (BK / 4u);
    let nl1 = nl0 + NT / (BK / 4u);
    let kb0 = select(t / QN, ka, BT);
    let kb1 = select((t + NT) / QN, ka, BT);
    let nb0 = tn * TN + select(4u * qb0, nl0, BT);
    let nb1 = tn * TN + select(4u * qb1, nl1, BT);
    let ib0 = ob + select(kb0 * bks + nb0, nb0 * bns + ka, BT);
    let ib1 = ob + select(kb1 * bks + nb1, nb1 * bns + ka, BT);
    let bstep = select(bks, 1u, BT);
    let two_a = SLA > NT;
    let two_b = SLB > NT;
    let has_b = SLB >= NT || t < SLB;
    let nkt = (K + BK - 1u) / BK;

    var pa0 = lda4(ia0, ra0, ka0);
    var pa1 = vec4<f32>(0.0);
    if two_a { pa1 = lda4(ia1, ra1, ka1); }
    var pb0 = ldb4(ib0, nb0, kb0);
    var pb1 = vec4<f32>(0.0);
    if two_b { pb1 = ldb4(ib1, nb1, kb1); }
    sta_slot(0u, ka0, ml0, pa0);
    if two_a { sta_slot(0u, ka1, ml1, pa1); }
    if has_b { stb(0u, kb0, qb0, nl0, pb0); }
    if two_b { stb(0u, kb1, qb1, nl1, pb1); }
    workgroupBarrier();

    var kt = 0u;
    loop {
        // buffer 0 holds step kt; load kt + 1 into registers, then into buffer 1
        if kt >= nkt { break; }
        var k0 = (kt + 1u) * BK;
        var more = kt + 1u < nkt;
        if more {
            pa0 = lda4(ia0 + k0 * astep, ra0, k0 + ka0);
            if two_a { pa1 = lda4(ia1 + k0 * astep, ra1, k0 + ka1); }
            pb0 = ldb4(ib0 + k0 * bstep, nb0, k0 + kb0);
            if two_b { pb1 = ldb4(ib1 + k0 * bstep, nb1, k0 + kb1); }
        }
        tile(0u);
        if more {
            sta_slot(BK, ka0, ml0, pa0);
            if two_a { sta_slot(BK, ka1, ml1, pa1); }
            if has_b { stb(BK, kb0, qb0, nl0, pb0); }
            if two_b { stb(BK, kb1, qb1, nl1, pb1); }
        }
        workgroupBarrier();
        kt = kt + 1u;
        // buffer 1 holds step kt
        if kt >= nkt { break; }
        k0 = (kt + 1u) * BK;
        more = kt + 1u < nkt;
        if more {
            pa0 = lda4(ia0 + k0 * astep, ra0, k0 + ka0);
            if two_a { pa1 = lda4(ia1 + k0 * astep, ra1, k0 + ka1); }
            pb0 = ldb4(ib0 + k0 * bstep, nb0, k0 + kb0);
            if two_b { pb1 = ldb4(ib1 + k0 * bstep, nb1, k0 + kb1); }
        }
        tile(1u);
        if more {
            sta_slot(0u, ka0, ml0, pa0);
            if two_a { sta_slot(0u, ka1, ml1, pa1); }
            if has_b { stb(0u, kb0, qb0, nl0, pb0); }
            if two_b { stb(0u, kb1, qb1, nl1, pb1); }
        }
        workgroupBarrier();
        kt = kt + 1u;
    }

    let m0 = tm * TM + 4u * ty;
    let n0 = tn * TN + 4u * tx;
    st_col(oo, m0, n0, c00, c10, c20, c30, c40, c50, c60, c70);
    st_col(oo, m0, n0 + 4u * QS, c01, c11, c21, c31, c41, c51, c61, c71);
}
