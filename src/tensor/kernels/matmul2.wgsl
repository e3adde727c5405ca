// matmul2.wgsl - tiled matrix product out[b] = A[b] . B[b] (+ bias) for src/tensor/matmul.c, for
// operands of any strides (the kernel for ragged products: K or N not a multiple of 4, unaligned
// rows, any layout).  A (m, k) of batch b is a[offA(b) + m * P.aux.x + k * P.aux.y], B (k, n) is
// b[offB(b) + k * P.aux.z + n * P.aux.w] (matmul_tile.wgsl walks the tiles and adds the batch
// offsets); P.sv = (M, N, K, tiles along M), P.off = (A offset, B offset, bias offset, tiles
// along N), P.st[4].x = bias stride along N; the output is a fresh contiguous [batch, M, N].
//
// One workgroup of 256 invocations computes a TM x TN tile (matmul_step.wgsl: OP & 3 = 0:
// 128 x 128, 8 x 8 outputs per invocation; 1: 64 x 64 with K steps of 16, 4 x 4; 2: 128 x 64,
// 8 x 4; OP bit 2 (WARP8): invocations laid out 8 x 4 per warp instead of 16 x 2, fewer
// shared-memory wavefronts per read).  Tiles of A and B go through workgroup memory as vec4
// quads along M (A) and N (B), k-major, rows padded by one vec4 (bank-conflict free), two
// buffers: the next K step is loaded into registers while the current one is multiplied.  The K
// step is unrolled through calls with constant arguments (step(row)), so every workgroup read in
// the hot loop is Xs[constant][tx or ty] and the compiler's index clamp is loop-invariant.
// Global loads are scalar; the invocation-to-element mapping follows whichever of the operand's
// strides is 1 (MA 0: k contiguous, 1: m contiguous; MB 0: n contiguous, 1: k contiguous), and
// rows, columns and k past the matrix read as 0.  MC 1: add the bias.
//
// H200 (GPU timestamps): 128 x 64 WARP8 (tile128x64w, matmul.c's default for ragged products of
// >= 128 such tiles) 4095 x 4097 x 1023 1.17 ms = 29.3 TFLOP/s, within 3% of the fastest
// in-place kernel; 64 x 64 (tile64x64u, the default below that and the tuner's reference) sgemm
// 1024^3 82 us; 128 x 128 (tile128x128u, a tuner candidate) the tuner's choice for ragged
// x . W^T 4095 x 4097 x 1023 in place, 1.04 ms.

@group(0) @binding(0) var<storage, read_write> out: array<SO>;
@group(0) @binding(1) var<storage, read> a: array<SA>;
@group(0) @binding(2) var<storage, read> b: array<SB>;
@group(0) @binding(3) var<storage, read> c: array<SC>;

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

    store_tile(oo, tm, tn);
}
