// matmul3.wgsl - matmul2.wgsl (unrolled inner loop, OP = tile shape 0..2 + 4 for the 8 x 4 warp
// layout, matmul_step.wgsl) with 16-byte global memory traffic, for operands whose contiguous
// runs are quad-aligned: A k-contiguous (stride 1 along k; row stride, offset and K multiples of
// 4) or, AT (MA == 1), m-contiguous (A^T views; column stride and M multiples of 4), B
// n-contiguous (row stride, offset and N multiples of 4) or, BT (MB == 1), k-contiguous
// (x . W^T; W's row stride a multiple of 4), batch strides multiples of 4 (src/tensor/matmul.c
// checks).  A is loaded as vec4 runs along k and written transposed into the k-major tile (four
// component stores), B as vec4 runs along n straight into its tile; BT loads B as A is loaded,
// AT loads A as B is; each output row segment of four is one vec4 store.  Since K, N (and M for
// AT) are multiples of 4, a quad is either wholly inside or wholly outside the matrix.  One A
// slot and at most one B slot per invocation.
//
// H200 (GPU timestamps): 64 x 64 WARP8 (tile64x64v4w, matmul.c's default for 16-byte products
// of fewer than 256 tiles of 128 x 128) sgemm 1024^3 72 us = 28.2 TFLOP/s, 0.75 of cuBLAS
// (matmul2's 64 x 64 82 us); 128 x 128 WARP8 (tile128x128v4w, the default for 16-byte products
// that are not tile-exact) 4096^3 3.98 ms.

@group(0) @binding(0) var<storage, read_write> out: array<vec4<SO>>;
@group(0) @binding(1) var<storage, read> a: array<vec4<SA>>;
@group(0) @binding(2) var<storage, read> b: array<vec4<SB>>;
@group(0) @binding(3) var<storage, read> c: array<SC>;

const BT: bool = MB == 1u;       // B k-contiguous (x . W^T): B's tile loaded as A's
const AT: bool = MA == 1u;       // A m-contiguous (A^T view): A's tile loaded as B's

// A: slot s -> (quad along k, row) = (s % (BK / 4), s / (BK / 4)); element index i (a multiple
// of 4) of row r at k.  B: slot s -> (k, quad along n) = (s / QN, s % QN); BT: as A's, (quad
// along k, column) = (s % (BK / 4), s / (BK / 4)).
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

// A's slot into buffer row row0 (AT: a quad along m at quad q of the tile, stored as it is).
fn sta_slot(row0: u32, q: u32, m: u32, v: vec4<f32>) {
    if AT {
        As[row0][q] = v;
    } else {
        sta(row0, m, v);
    }
}

// B's slot into buffer row row0 (BT: a quad along k of column n, stored transposed).
fn stb(row0: u32, q: u32, n: u32, v: vec4<f32>) {
    if BT {
        let qn = n / 4u;
        let c = n % 4u;
        Bs[row0][qn][c] = v.x;
        Bs[row0 + 1u][qn][c] = v.y;
        Bs[row0 + 2u][qn][c] = v.z;
        Bs[row0 + 3u][qn][c] = v.w;
    } else {
        Bs[row0][q] = v;
    }
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
    // (AT: k t / QM, quad along m t % QM, as B's)
    let aks = P.aux.y;
    let ka = 4u * (t % (BK / 4u));
    let kat = select(ka, t / QM, AT);
    let ml = select(t / (BK / 4u), 4u * (t % QM), AT);   // row within the tile
    let ra = tm * TM + ml;
    let ia = oa + select(ra * ars + ka, kat * aks + ra, AT);
    let astep = select(1u, aks, AT);
    let bns = P.aux.w;
    let qb = t % QN;
    let nl = t / (BK / 4u);          // BT: column within the tile
    let kb = select(t / QN, ka, BT);
    let nb = tn * TN + select(4u * qb, nl, BT);
    let ib = ob + select(kb * bks + nb, nb * bns + ka, BT);
    let bstep = select(bks, 1u, BT);
    let has_b = SLB >= 256u || t < SLB;
    let nkt = (K + BK - 1u) / BK;

    var pa = lda4(ia, ra, kat);
    var pb = ldb4(ib, nb, kb);
    sta_slot(kat, ml / 4u, ml, pa);
    if has_b { stb(kb, qb, nl, pb); }
    workgroupBarrier();

    var kt = 0u;
    loop {
        if kt >= nkt { break; }
        var k0 = (kt + 1u) * BK;
        var more = kt + 1u < nkt;
        if more {
            pa = lda4(ia + k0 * astep, ra, k0 + kat);
            pb = ldb4(ib + k0 * bstep, nb, k0 + kb);
        }
        tile(0u);
        if more {
            sta_slot(BK + kat, ml / 4u, ml, pa);
            if has_b { stb(BK + kb, qb, nl, pb); }
        }
        workgroupBarrier();
        kt = kt + 1u;
        if kt >= nkt { break; }
        k0 = (kt + 1u) * BK;
        more = kt + 1u < nkt;
        if more {
            pa = lda4(ia + k0 * astep, ra, k0 + kat);
            pb = ldb4(ib + k0 * bstep, nb, k0 + kb);
        }
        tile(1u);
        if more {
            sta_slot(kat, ml / 4u, ml, pa);
            if has_b { stb(kb, qb, nl, pb); }
        }
        workgroupBarrier();
        kt = kt + 1u;
    }

    store_tile(oo, tm, tn);
}
