// matmul2.wgsl - the same tiled product as matmul.wgsl (same bindings, same Params, same tiles
// OP 0..3, same results) with an inner loop written for a compiler that clamps every dynamic
// index: the K step is fully unrolled through calls with constant arguments (step(row)), the
// two buffers are visited by a loop unrolled by two, and the tiles are nested arrays
// Xs[buffer * BK + k][quad], so every workgroup read in the hot loop is Xs[constant][tx or ty]:
// the only clamp, min(tx, RB - 1), is loop-invariant and hoisted, and the reads become plain
// loads with immediate offsets.  The accumulators are private variables (registers after
// inlining).  Global loads keep one base index, row and k per invocation and operand (fewer
// live registers than matmul.wgsl's per-component vectors).  OP bit 2 (WARP8): invocations are
// laid out 8 x 4 per warp instead of 16 x 2 (fewer shared-memory wavefronts per read).

@group(0) @binding(0) var<storage, read_write> out: array<SO>;
@group(0) @binding(1) var<storage, read> a: array<SA>;
@group(0) @binding(2) var<storage, read> b: array<SB>;
@group(0) @binding(3) var<storage, read> c: array<SC>;

const SHAPE: u32 = OP & 3u;                                 // matmul.wgsl's OP
const WARP8: bool = (OP & 4u) != 0u;                        // 8 x 4 invocations per warp
const BK: u32 = select(8u, 16u, SHAPE == 1u || SHAPE == 3u);   // K step
const TM: u32 = select(128u, 64u, SHAPE == 1u);                // tile rows
const TN: u32 = select(64u, 128u, SHAPE == 0u || SHAPE == 3u); // tile columns
const QM: u32 = TM / 4u;
const QN: u32 = TN / 4u;
const RA: u32 = QM + 1u;                                    // padded rows, in vec4
const RB: u32 = QN + 1u;
const SLA: u32 = TM * BK / 4u;                              // vec4 load slots per step
const SLB: u32 = TN * BK / 4u;

var<workgroup> As: array<array<vec4<f32>, RA>, 2u * BK>;   // [buffer * BK + k][quad]
var<workgroup> Bs: array<array<vec4<f32>, RB>, 2u * BK>;

var<private> tx: u32;
var<private> ty: u32;
var<private> c00: vec4<f32>; var<private> c01: vec4<f32>;
var<private> c10: vec4<f32>; var<private> c11: vec4<f32>;
var<private> c20: vec4<f32>; var<private> c21: vec4<f32>;
var<private> c30: vec4<f32>; var<private> c31: vec4<f32>;
var<private> c40: vec4<f32>; var<private> c41: vec4<f32>;
var<private> c50: vec4<f32>; var<private> c51: vec4<f32>;
var<private> c60: vec4<f32>; var<private> c61: vec4<f32>;
var<private> c70: vec4<f32>; var<private> c71: vec4<f32>;

// One k of the tile in buffer row `row` (a constant at every call).
fn step(row: u32) {
    let a0 = As[row][ty];
    let b0 = Bs[row][tx];
    c00 = fma(vec4<f32>(a0.x), b0, c00);
    c10 = fma(vec4<f32>(a0.y), b0, c10);
    c20 = fma(vec4<f32>(a0.z), b0, c20);
    c30 = fma(vec4<f32>(a0.w), b0, c30);
    if TM == 128u {
        let a1 = As[row][ty + 16u];
        c40 = fma(vec4<f32>(a1.x), b0, c40);
        c50 = fma(vec4<f32>(a1.y), b0, c50);
        c60 = fma(vec4<f32>(a1.z), b0, c60);
        c70 = fma(vec4<f32>(a1.w), b0, c70);
        if TN == 128u {
            let b1 = Bs[row][tx + 16u];
            c01 = fma(vec4<f32>(a0.x), b1, c01);
            c11 = fma(vec4<f32>(a0.y), b1, c11);
            c21 = fma(vec4<f32>(a0.z), b1, c21);
            c31 = fma(vec4<f32>(a0.w), b1, c31);
            c41 = fma(vec4<f32>(a1.x), b1, c41);
            c51 = fma(vec4<f32>(a1.y), b1, c51);
            c61 = fma(vec4<f32>(a1.z), b1, c61);
            c71 = fma(vec4<f32>(a1.w), b1, c71);
        }
    }
}

// The whole K step of buffer `buf` (a constant at every call).
fn tile(buf: u32) {
    let r = buf * BK;
    step(r); step(r + 1u); step(r + 2u); step(r + 3u);
    step(r + 4u); step(r + 5u); step(r + 6u); step(r + 7u);
    if BK == 16u {
        step(r + 8u); step(r + 9u); step(r + 10u); step(r + 11u);
        step(r + 12u); step(r + 13u); step(r + 14u); step(r + 15u);
    }
}

// Operand loads.  Slot s of an operand maps to (k, quad): k fastest when k is the operand's
// contiguous dim (kc), else quad fastest.
fn slot(s: u32, kc: bool, nq: u32) -> vec2<u32> {
    if kc { return vec2<u32>(s % BK, s / BK); }
    return vec2<u32>(s / nq, s % nq);
}

// Four rows r .. r + 3 of A at k (element index i = base + k0 * ks; rows step rs).
fn lda(i: u32, r: u32, k: u32) -> vec4<f32> {
    let rs = P.aux.x;
    let M = P.sv.x;
    let kin = k < P.sv.z;
    return vec4<f32>(select(0.0, f32(a[i]), kin && r < M),
                     select(0.0, f32(a[i + rs]), kin && r + 1u < M),
                     select(0.0, f32(a[i + 2u * rs]), kin && r + 2u < M),
                     select(0.0, f32(a[i + 3u * rs]), kin && r + 3u < M));
}

fn ldb(i: u32, r: u32, k: u32) -> vec4<f32> {
    let rs = P.aux.w;
    let N = P.sv.y;
    let kin = k < P.sv.z;
    return vec4<f32>(select(0.0, f32(b[i]), kin && r < N),
                     select(0.0, f32(b[i + rs]), kin && r + 1u < N),
                     select(0.0, f32(b[i + 2u * rs]), kin && r + 2u < N),
                     select(0.0, f32(b[i + 3u * rs]), kin && r + 3u < N));
}


// Stores 4 outputs of row m from column n0 on (bounds-checked, bias added).
fn st4(ob: u32, m: u32, n0: u32, v: vec4<f32>) {
    let M = P.sv.x;
    let N = P.sv.y;
    if m >= M { return; }
    let bs = u32(P.st[4].x);
    for (var j = 0u; j < 4u; j++) {
        let n = n0 + j;
        if n < N {
            var x = v[j];
            if MC == 1u { x = x + f32(c[P.off.z + n * bs]); }
            out[ob + m * N + n] = SO(x);
        }
    }
}

@compute @workgroup_size(256)
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
    if WARP8 {
        // a warp of 32 covers 8 x 4 (tx, ty): its vec4 reads of a k row touch 4 quads of A and
        // 8 of B, one 128-byte wavefront each (16 x 2 needs two for B)
        let w = t / 32u;
        let l = t % 32u;
        tx = (w % 2u) * 8u + l % 8u;
        ty = (w / 2u) * 4u + l / 8u;
    } else {
        tx = t % 16u;
        ty = t / 16u;
    }

    let aks = P.aux.y;
    let bks = P.aux.z;
    // slot t (and t + 256 when there are 512) of each operand
    let sa0 = slot(t, MA == 0u, QM);
    let sa1 = slot(t + 256u, MA == 0u, QM);
    let sb0 = slot(t, MB == 1u, QN);
    let sb1 = slot(t + 256u, MB == 1u, QN);
    let ra0 = tm * TM + 4u * sa0.y;
    let ra1 = tm * TM + 4u * sa1.y;
    let rb0 = tn * TN + 4u * sb0.y;
    let rb1 = tn * TN + 4u * sb1.y;
    let ia0 = oa + ra0 * P.aux.x + sa0.x * aks;
    let ia1 = oa + ra1 * P.aux.x + sa1.x * aks;
    let ib0 = ob + rb0 * P.aux.w + sb0.x * bks;
    let ib1 = ob + rb1 * P.aux.w + sb1.x * bks;
    let two_a = SLA > 256u;
    let two_b = SLB > 256u;
    let one_b = SLB >= 256u || t < SLB;
    let nkt = (K + BK - 1u) / BK;

    var pa0 = lda(ia0, ra0, sa0.x);
    var pa1 = vec4<f32>(0.0);
    if two_a { pa1 = lda(ia1, ra1, sa1.x); }
    var pb0 = ldb(ib0, rb0, sb0.x);
    var pb1 = vec4<f32>(0.0);
    if two_b { pb1 = ldb(ib1, rb1, sb1.x); }
    As[sa0.x][sa0.y] = pa0;
    if two_a { As[sa1.x][sa1.y] = pa1; }
    if one_b { Bs[sb0.x][sb0.y] = pb0; }
    if two_b { Bs[sb1.x][sb1.y] = pb1; }
    workgroupBarrier();

    var kt = 0u;
    loop {
        // buffer 0 holds step kt; load kt + 1 into registers, then into buffer 1
        if kt >= nkt { break; }
        var k0 = (kt + 1u) * BK;
        var more = kt + 1u < nkt;
        if more {
            pa0 = lda(ia0 + k0 * aks, ra0, k0 + sa0.x);
            if two_a { pa1 = lda(ia1 + k0 * aks, ra1, k0 + sa1.x); }
            pb0 = ldb(ib0 + k0 * bks, rb0, k0 + sb0.x);
            if two_b { pb1 = ldb(ib1 + k0 * bks, rb1, k0 + sb1.x); }
        }
        tile(0u);
        if more {
            As[BK + sa0.x][sa0.y] = pa0;
            if two_a { As[BK + sa1.x][sa1.y] = pa1; }
            if one_b { Bs[BK + sb0.x][sb0.y] = pb0; }
            if two_b { Bs[BK + sb1.x][sb1.y] = pb1; }
        }
        workgroupBarrier();
        kt = kt + 1u;
        // buffer 1 holds step kt
        if kt >= nkt { break; }
        k0 = (kt + 1u) * BK;
        more = kt + 1u < nkt;
        if more {
            pa0 = lda(ia0 + k0 * aks, ra0, k0 + sa0.x);
            if two_a { pa1 = lda(ia1 + k0 * aks, ra1, k0 + sa1.x); }
            pb0 = ldb(ib0 + k0 * bks, rb0, k0 + sb0.x);
            if two_b { pb1 = ldb(ib1 + k0 * bks, rb1, k0 + sb1.x); }
        }
        tile(1u);
        if more {
            As[sa0.x][sa0.y] = pa0;
            if two_a { As[sa1.x][sa1.y] = pa1; }
            if one_b { Bs[sb0.x][sb0.y] = pb0; }
            if two_b { Bs[sb1.x][sb1.y] = pb1; }
        }
        workgroupBarrier();
        kt = kt + 1u;
    }

    let m0 = tm * TM + 4u * ty;
    let n0 = tn * TN + 4u * tx;
    st4(oo, m0, n0, c00);
    st4(oo, m0 + 1u, n0, c10);
    st4(oo, m0 + 2u, n0, c20);
    st4(oo, m0 + 3u, n0, c30);
    if TM == 128u {
        st4(oo, m0 + 64u, n0, c40);
        st4(oo, m0 + 65u, n0, c50);
        st4(oo, m0 + 66u, n0, c60);
        st4(oo, m0 + 67u, n0, c70);
    }
    if TN == 128u {
        st4(oo, m0, n0 + 64u, c01);
        st4(oo, m0 + 1u, n0 + 64u, c11);
        st4(oo, m0 + 2u, n0 + 64u, c21);
        st4(oo, m0 + 3u, n0 + 64u, c31);
        st4(oo, m0 + 64u, n0 + 64u, c41);
        st4(oo, m0 + 65u, n0 + 64u, c51);
        st4(oo, m0 + 66u, n0 + 64u, c61);
        st4(oo, m0 + 67u, n0 + 64u, c71);
    }
}
