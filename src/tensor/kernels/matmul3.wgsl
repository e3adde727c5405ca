// matmul3.wgsl - matmul2.wgsl (unrolled inner loop, OP = tile shape 0..3 + 4 for the 8 x 4 warp
// layout) with 16-byte global memory traffic, for row-major operands whose rows are quad-aligned:
// A k-contiguous (stride 1 along k; row stride, offset and K multiples of 4), B n-contiguous
// (row stride, offset and N multiples of 4), batch strides multiples of 4 (src/tensor/matmul.c
// checks; wt_matmul_ex refuses the kernel otherwise).  A is loaded as vec4 runs along k and
// written transposed into the k-major tile (four component stores), B as vec4 runs along n
// straight into its tile, and each output row segment of four is one vec4 store.  Since K and
// N are multiples of 4, a quad is either wholly inside or wholly outside the matrix.  One A slot
// and at most one B slot per invocation: tile shapes 0, 1 and 2 only (not 3, 128 x 128 x 16).
// H200: 64 x 64 with the 8 x 4 warp layout (OP 5, tile64x64v4w) is the fastest at 1024^3 (72 us,
// 28.2 TFLOP/s = 0.75 of cuBLAS; matmul2's 64 x 64 82 us); at 4096^3 128 x 128 (OP 4) takes
// 3.98 ms, matmul4.wgsl's tile-exact 128 x 128 3.39 ms.

@group(0) @binding(0) var<storage, read_write> out: array<vec4<SO>>;
@group(0) @binding(1) var<storage, read> a: array<vec4<SA>>;
@group(0) @binding(2) var<storage, read> b: array<vec4<SB>>;
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

// A: slot s -> (quad along k, row) = (s % (BK / 4), s / (BK / 4)); element index i (a multiple
// of 4) of row r at k.  B: slot s -> (k, quad along n) = (s / QN, s % QN).
fn lda4(i: u32, r: u32, k: u32) -> vec4<f32> {
    let v = vec4<f32>(a[i / 4u]);
    return select(vec4<f32>(0.0), v, vec4<bool>(r < P.sv.x && k < P.sv.z));
}

fn ldb4(i: u32, n: u32, k: u32) -> vec4<f32> {
    let v = vec4<f32>(b[i / 4u]);
    return select(vec4<f32>(0.0), v, vec4<bool>(n < P.sv.y && k < P.sv.z));
}

// Transposed store of A's quad along k (rows of the tile are k, quads are 4 m).
fn sta(row0: u32, m: u32, v: vec4<f32>) {
    let q = m / 4u;
    let c = m % 4u;
    As[row0][q][c] = v.x;
    As[row0 + 1u][q][c] = v.y;
    As[row0 + 2u][q][c] = v.z;
    As[row0 + 3u][q][c] = v.w;
}


// Stores the 4 outputs of row m from column n0 on (one vec4; N is a multiple of 4), bias added.
fn st4(ob: u32, m: u32, n0: u32, v: vec4<f32>) {
    let M = P.sv.x;
    let N = P.sv.y;
    if m >= M || n0 >= N { return; }
    var x = v;
    if MC == 1u {
        let bs = u32(P.st[4].x);
        let o = P.off.z + n0 * bs;
        x = x + vec4<f32>(f32(c[o]), f32(c[o + bs]), f32(c[o + 2u * bs]), f32(c[o + 3u * bs]));
    }
    out[(ob + m * N + n0) / 4u] = vec4<SO>(x);
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

    let ars = P.aux.x;
    let bks = P.aux.z;
    // A: one vec4 slot per invocation (TM * BK / 4 = 256 quads along k); B: TN * BK / 4 slots
    let ka = 4u * (t % (BK / 4u));
    let ra = tm * TM + t / (BK / 4u);
    let ia = oa + ra * ars + ka;
    let kb = t / QN;
    let qb = t % QN;
    let nb = tn * TN + 4u * qb;
    let ib = ob + kb * bks + nb;
    let has_b = SLB >= 256u || t < SLB;
    let ml = t / (BK / 4u);          // row within the tile
    let nkt = (K + BK - 1u) / BK;

    var pa = lda4(ia, ra, ka);
    var pb = ldb4(ib, nb, kb);
    sta(ka, ml, pa);
    if has_b { Bs[kb][qb] = pb; }
    workgroupBarrier();

    var kt = 0u;
    loop {
        if kt >= nkt { break; }
        var k0 = (kt + 1u) * BK;
        var more = kt + 1u < nkt;
        if more {
            pa = lda4(ia + k0, ra, k0 + ka);
            pb = ldb4(ib + k0 * bks, nb, k0 + kb);
        }
        tile(0u);
        if more {
            sta(BK + ka, ml, pa);
            if has_b { Bs[BK + kb][qb] = pb; }
        }
        workgroupBarrier();
        kt = kt + 1u;
        if kt >= nkt { break; }
        k0 = (kt + 1u) * BK;
        more = kt + 1u < nkt;
        if more {
            pa = lda4(ia + k0, ra, k0 + ka);
            pb = ldb4(ib + k0 * bks, nb, k0 + kb);
        }
        tile(1u);
        if more {
            sta(ka, ml, pa);
            if has_b { Bs[kb][qb] = pb; }
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
