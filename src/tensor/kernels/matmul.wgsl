// matmul.wgsl - tiled matrix product out[b] = A[b] . B[b] (+ bias) for src/tensor/matmul.c:
// wt_matmul, wt_linear and batched products with broadcast batch dims.
//
// Operands are read in place through strides, so a transposed or sliced view costs no copy:
// A element (m, k) of batch b is a[offA(b) + m * P.aux.x + k * P.aux.y], B element (k, n) is
// b[offB(b) + k * P.aux.z + n * P.aux.w]; offX(b) adds batch coordinate * stride for each of the
// P.ndim batch dims (P.shape, strides P.st[0..1] for A and P.st[2..3] for B; 0 = broadcast).
// The output is a fresh contiguous [batch, M, N].  P.sv = (M, N, K, tiles along M), P.off =
// (A offset, B offset, bias offset, tiles along N), P.st[4].x = bias stride along N.
//
// One workgroup of 256 invocations computes a TM x TN tile marching along K in steps of BK:
// OP 0: 128 x 128, BK 8, 8 x 8 outputs per invocation; OP 1: 64 x 64, BK 16, 4 x 4; OP 2:
// 128 x 64, BK 8, 8 x 4; OP 3: 128 x 128, BK 16 (33 KiB of workgroup memory, the others < 17).
// Tiles of A and B go through workgroup memory as vec4 quads along M (A) and N (B), k-major:
// Xs[k][quad], rows padded by one vec4 so that both the loads (8 invocations on 8 different k)
// and the inner loop's vec4 reads are free of bank conflicts.  The next K step is loaded into
// registers while the current one is multiplied (two buffers, one barrier per step).  Global
// loads are scalar and strided: invocation-to-element mapping follows whichever of A's strides
// is 1 (MA 0: k contiguous, MA 1: m contiguous; the same for B with MB 0: n contiguous, MB 1:
// k contiguous), so a warp reads contiguous memory either way.  Out-of-range rows, columns and
// k (ragged shapes) read as 0 through one select; the clamped index keeps them in bounds.  MC 1:
// add the bias.  Tiles are visited in groups of 8 tile rows (L2 reuse of B across a wave).

@group(0) @binding(0) var<storage, read_write> out: array<SO>;
@group(0) @binding(1) var<storage, read> a: array<SA>;
@group(0) @binding(2) var<storage, read> b: array<SB>;
@group(0) @binding(3) var<storage, read> c: array<SC>;

const BK: u32 = select(8u, 16u, OP == 1u || OP == 3u);   // K step
const TM: u32 = select(128u, 64u, OP == 1u);                // tile rows
const TN: u32 = select(64u, 128u, OP == 0u || OP == 3u);    // tile columns
const QM: u32 = TM / 4u;                                    // quads per A tile row
const QN: u32 = TN / 4u;
const RA: u32 = QM + 1u;                                    // padded rows, in vec4
const RB: u32 = QN + 1u;
const SLA: u32 = TM * BK / 4u;                              // vec4 load slots per step
const SLB: u32 = TN * BK / 4u;

var<workgroup> As: array<vec4<f32>, 2u * BK * RA>;          // two buffers
var<workgroup> Bs: array<vec4<f32>, 2u * BK * RB>;

struct Ld {
    base: vec4<u32>,      // element index of quad component 0..3 at k = 0
    ok: vec4<bool>,       // rows in range
    k: u32,               // k within the step
    q: u32,               // quad within the tile row
}

// Mapping of load slot s of an operand to (k, quad); kc: k is the contiguous dim.
fn slot(s: u32, kc: bool, nq: u32) -> vec2<u32> {
    if kc { return vec2<u32>(s % BK, s / BK); }
    return vec2<u32>(s / nq, s % nq);
}

fn mk_ld(s: u32, kc: bool, nq: u32, r0: u32, nr: u32, off: u32, rs: u32, ks: u32) -> Ld {
    let kq = slot(s, kc, nq);
    let r = vec4<u32>(r0 + 4u * kq.y) + vec4<u32>(0u, 1u, 2u, 3u);
    var l: Ld;
    l.base = vec4<u32>(off) + r * rs + vec4<u32>(kq.x * ks);
    l.ok = r < vec4<u32>(nr);
    l.k = kq.x;
    l.q = kq.y;
    return l;
}

fn lda(l: Ld, k0: u32, ks: u32, nk: u32) -> vec4<f32> {
    let i = l.base + vec4<u32>(k0 * ks);
    let ok = l.ok & vec4<bool>(k0 + l.k < nk);
    let v = vec4<f32>(f32(a[i.x]), f32(a[i.y]), f32(a[i.z]), f32(a[i.w]));
    return select(vec4<f32>(0.0), v, ok);
}

fn ldb(l: Ld, k0: u32, ks: u32, nk: u32) -> vec4<f32> {
    let i = l.base + vec4<u32>(k0 * ks);
    let ok = l.ok & vec4<bool>(k0 + l.k < nk);
    let v = vec4<f32>(f32(b[i.x]), f32(b[i.y]), f32(b[i.z]), f32(b[i.w]));
    return select(vec4<f32>(0.0), v, ok);
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

    let ars = P.aux.x;
    let aks = P.aux.y;
    let bks = P.aux.z;
    let bns = P.aux.w;
    let la0 = mk_ld(t, MA == 0u, QM, tm * TM, M, oa, ars, aks);
    let la1 = mk_ld(t + 256u, MA == 0u, QM, tm * TM, M, oa, ars, aks);
    let lb0 = mk_ld(t, MB == 1u, QN, tn * TN, N, ob, bns, bks);
    let lb1 = mk_ld(t + 256u, MB == 1u, QN, tn * TN, N, ob, bns, bks);
    let nkt = (K + BK - 1u) / BK;

    // slot t always exists for A (SLA >= 256); B has SLB >= 128 slots; slot t + 256 when > 256
    let lb0ok = SLB >= 256u || t < SLB;
    var ra0 = lda(la0, 0u, aks, K);
    var ra1 = vec4<f32>(0.0);
    if SLA > 256u { ra1 = lda(la1, 0u, aks, K); }
    var rb0 = ldb(lb0, 0u, bks, K);
    var rb1 = vec4<f32>(0.0);
    if SLB > 256u { rb1 = ldb(lb1, 0u, bks, K); }
    As[la0.k * RA + la0.q] = ra0;
    if SLA > 256u { As[la1.k * RA + la1.q] = ra1; }
    if lb0ok { Bs[lb0.k * RB + lb0.q] = rb0; }
    if SLB > 256u { Bs[lb1.k * RB + lb1.q] = rb1; }
    workgroupBarrier();

    let tx = t % 16u;
    let ty = t / 16u;
    var c00 = vec4<f32>(0.0); var c01 = vec4<f32>(0.0);
    var c10 = vec4<f32>(0.0); var c11 = vec4<f32>(0.0);
    var c20 = vec4<f32>(0.0); var c21 = vec4<f32>(0.0);
    var c30 = vec4<f32>(0.0); var c31 = vec4<f32>(0.0);
    var c40 = vec4<f32>(0.0); var c41 = vec4<f32>(0.0);
    var c50 = vec4<f32>(0.0); var c51 = vec4<f32>(0.0);
    var c60 = vec4<f32>(0.0); var c61 = vec4<f32>(0.0);
    var c70 = vec4<f32>(0.0); var c71 = vec4<f32>(0.0);

    var cur = 0u;
    for (var kt = 0u; kt < nkt; kt++) {
        let more = kt + 1u < nkt;
        if more {
            let k0 = (kt + 1u) * BK;
            ra0 = lda(la0, k0, aks, K);
            if SLA > 256u { ra1 = lda(la1, k0, aks, K); }
            rb0 = ldb(lb0, k0, bks, K);
            if SLB > 256u { rb1 = ldb(lb1, k0, bks, K); }
        }
        let abase = cur * (BK * RA);
        let bbase = cur * (BK * RB);
        for (var k = 0u; k < BK; k++) {
            let ai = abase + k * RA + ty;
            let bi2 = bbase + k * RB + tx;
            let a0 = As[ai];
            let b0 = Bs[bi2];
            c00 = fma(vec4<f32>(a0.x), b0, c00);
            c10 = fma(vec4<f32>(a0.y), b0, c10);
            c20 = fma(vec4<f32>(a0.z), b0, c20);
            c30 = fma(vec4<f32>(a0.w), b0, c30);
            if TM == 128u {
                let a1 = As[ai + 16u];
                c40 = fma(vec4<f32>(a1.x), b0, c40);
                c50 = fma(vec4<f32>(a1.y), b0, c50);
                c60 = fma(vec4<f32>(a1.z), b0, c60);
                c70 = fma(vec4<f32>(a1.w), b0, c70);
                if TN == 128u {
                    let b1 = Bs[bi2 + 16u];
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
        if more {
            let nxt = 1u - cur;
            As[nxt * (BK * RA) + la0.k * RA + la0.q] = ra0;
            if SLA > 256u { As[nxt * (BK * RA) + la1.k * RA + la1.q] = ra1; }
            if lb0ok { Bs[nxt * (BK * RB) + lb0.k * RB + lb0.q] = rb0; }
            if SLB > 256u { Bs[nxt * (BK * RB) + lb1.k * RB + lb1.q] = rb1; }
        }
        workgroupBarrier();
        cur = 1u - cur;
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
