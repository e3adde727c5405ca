// flash2.wgsl - flash attention (src/tensor/attention.c): out = softmax(scale q k^T [causal]) v
// for one block of BR query rows of one (batch, head) per workgroup, streaming the keys in tiles
// of BC = 64 with an online softmax, so memory is O(sequence): the scores of a tile never leave
// the workgroup.  The default for head dims above 128 and on devices with at most 32 KiB of
// workgroup memory (lavapipe), flash3.wgsl elsewhere.  Lanes form groups of 16; group g owns rows
// 4g .. 4g + 3 (unrolled by hand: plain registers, no arrays indexed by row) and lane c of a
// group owns key columns 4c .. 4c + 3 of a tile and output column quads c, c + 16, ...  All
// shared memory traffic is 16-byte vectors, laid out (XOR-swizzled) so that no access conflicts
// on a bank.  Per key tile:
//   1. S = q k^T (BR x BC): K arrives in chunks of KC head dims, stored d-major as quads of keys;
//      the scaled q tile stays in shared memory for the whole loop;
//   2. causal and out-of-range keys -> -inf; the lanes' row maxima meet in shared memory (in P's
//      place), the new row max m' rescales the running output and sum by exp(m - m'), and
//      P = exp(S - m') goes to shared memory;
//   3. O += P V: V arrives in chunks of VC keys, row-major; the lanes add their rows' P to the
//      running sums on the way.
// A software pipeline: every K or V chunk is fetched from global memory into registers one chunk
// ahead, while the current chunk is computed, so the loads' latency hides behind the arithmetic
// instead of stalling before each barrier.  32 KiB of workgroup memory in all (lavapipe's
// limit): q tile 16 KiB, K/V chunk 8 KiB, P 8 KiB.  A row that sees no key (causal with more
// queries than keys) gives zeros.  All arithmetic is f32 (f16 storage is widened on load,
// rounded once on store).  H200, causal B1 H32 S4096 D128 f32: 15.0 TFLOP/s.
// Specialisation: MA = log2(DP / 16), DP = the head dim rounded up to a power of two (16..256;
// zero-padded; DP 256 takes 16-row blocks and 64 lanes); MC bit 0 causal (query i sees keys
// j <= i + Lk - Lq: aligned to the end, a KV cache).  Inputs a = q, b = k, c = v, any strides:
// P.st[0] / st[2] / st[4] = (batch, head, row, dim) strides of q / k / v, P.off = their offsets;
// P.shape[0] = (B, H, Lq, Lk), P.shape[1] = (D, heads per KV head (GQA), query blocks, 0);
// P.sv.x = scale.  Output [B, H, Lq, D] contiguous.  P.n = workgroups * 256 (src/tensor/batch.c
// counts 256-wide groups).

@group(0) @binding(0) var<storage, read_write> out: array<SO>;
@group(0) @binding(1) var<storage, read> qb: array<SA>;
@group(0) @binding(2) var<storage, read> kb: array<SB>;
@group(0) @binding(3) var<storage, read> vb: array<SC>;

const CAUSAL: bool = (MC & 1u) != 0u;
const DP: u32 = 16u << MA;                    // padded head dim
const D4: u32 = DP / 4u;                      // its quads
const WGS: u32 = select(128u, 64u, DP > 128u);  // lanes
const BR: u32 = WGS / 4u;                     // query rows per workgroup (4 per group of 16)
const BC: u32 = 64u;                          // keys per tile
const NO4: u32 = max(DP / 64u, 1u);           // output column quads per lane
const KVN: u32 = 512u;                        // vec4 slots of the K/V chunk buffer
const KC: u32 = min(KVN / 16u, DP);           // head dims per K chunk
const VC: u32 = min(BC, KVN * 4u / DP);       // keys per V chunk
const QM: u32 = min(D4, 8u) - 1u;             // q swizzle mask

var<workgroup> qs: array<vec4<f32>, BR * D4>;
var<workgroup> kv: array<vec4<f32>, KVN>;     // K chunk (KC x 16 key quads) or V chunk (VC x D4)
var<workgroup> ps: array<vec4<f32>, BR * 16u>;  // P (BR x 16 key quads), or the row maxima

fn qi(r: u32, d4: u32) -> u32 { return r * D4 + (d4 ^ ((r >> 2u) & QM)); }
fn ki(d: u32, jg: u32) -> u32 { return d * 16u + (jg ^ (d & 15u)); }
fn pi(r: u32, j4: u32) -> u32 { return r * 16u + (j4 ^ ((r >> 2u) & 15u)); }

fn neg_inf() -> f32 {
    return bitcast<f32>(0xff800000u | P.pad0);
}

fn sidx(k: u32, b: u32, h: u32, r: u32, d: u32) -> u32 {
    let s = P.st[2u * k];
    return u32(i32(P.off[k]) + i32(b) * s.x + i32(h) * s.y + i32(r) * s.z + i32(d) * s.w);
}

fn hmax(x: vec4<f32>) -> f32 {
    return max(max(x.x, x.y), max(x.z, x.w));
}

fn hsum(x: vec4<f32>) -> f32 {
    return (x.x + x.y) + (x.z + x.w);
}

const NPF: u32 = KVN / WGS;                   // vec4 slots of a chunk per lane

// key quad jg (keys k0 + 4jg ..), head dim d of K; kb0 = the (batch, KV head) base
fn fetch_k(kb0: i32, k0: u32, jg: u32, d: u32, Lk: u32, D: u32) -> vec4<f32> {
    var x = vec4<f32>(0.0);
    let s = P.st[2u];
    if d < D {
        let j = k0 + 4u * jg;
        let base = kb0 + i32(d) * s.w;
        if j < Lk { x.x = f32(kb[u32(base + i32(j) * s.z)]); }
        if j + 1u < Lk { x.y = f32(kb[u32(base + i32(j + 1u) * s.z)]); }
        if j + 2u < Lk { x.z = f32(kb[u32(base + i32(j + 2u) * s.z)]); }
        if j + 3u < Lk { x.w = f32(kb[u32(base + i32(j + 3u) * s.z)]); }
    }
    return x;
}

// key j, head dims 4e4 .. 4e4 + 3 of V
fn fetch_v(vb0: i32, j: u32, e4: u32, Lk: u32, D: u32) -> vec4<f32> {
    var x = vec4<f32>(0.0);
    let s = P.st[4u];
    if j < Lk {
        let base = vb0 + i32(j) * s.z;
        let e = 4u * e4;
        if e < D { x.x = f32(vb[u32(base + i32(e) * s.w)]); }
        if e + 1u < D { x.y = f32(vb[u32(base + i32(e + 1u) * s.w)]); }
        if e + 2u < D { x.z = f32(vb[u32(base + i32(e + 2u) * s.w)]); }
        if e + 3u < D { x.w = f32(vb[u32(base + i32(e + 3u) * s.w)]); }
    }
    return x;
}

@compute @workgroup_size(WGS)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
    let B = P.shape[0].x;
    let H = P.shape[0].y;
    let Lq = P.shape[0].z;
    let Lk = P.shape[0].w;
    let D = P.shape[1].x;
    let G = P.shape[1].y;
    let nqb = P.shape[1].z;
    let scale = bitcast<f32>(P.sv.x);
    let w = wid.y * P.gx + wid.x;
    let live = w < B * H * nqb;           // uniform: the same for the whole workgroup
    let bh = w / nqb;
    let qblk = nqb - 1u - w % nqb;        // heaviest (causal) blocks first
    let b = bh / max(H, 1u);
    let h = bh % max(H, 1u);
    let hk = h / G;
    let q0 = qblk * BR;
    let g = lid / 16u;                    // row group: rows 4g .. 4g + 3
    let c = lid % 16u;
    let shift = i32(Lk) - i32(Lq);
    let kb0 = i32(P.off[1]) + i32(b) * P.st[2].x + i32(hk) * P.st[2].y;
    let vb0 = i32(P.off[2]) + i32(b) * P.st[4].x + i32(hk) * P.st[4].y;

    // the q tile, scaled, zero-padded
    for (var u = lid; u < BR * D4; u = u + WGS) {
        let r = u / D4;
        let d4 = u % D4;
        var x = vec4<f32>(0.0);
        if live && q0 + r < Lq {
            for (var e = 0u; e < 4u; e = e + 1u) {
                if 4u * d4 + e < D { x[e] = f32(qb[sidx(0u, b, h, q0 + r, 4u * d4 + e)]) * scale; }
            }
        }
        qs[qi(r, d4)] = x;
    }

    var m = vec4<f32>(neg_inf());         // running max of rows 4g .. 4g + 3
    var l = vec4<f32>(0.0);               // running sums
    var o0: array<vec4<f32>, NO4>;
    var o1: array<vec4<f32>, NO4>;
    var o2: array<vec4<f32>, NO4>;
    var o3: array<vec4<f32>, NO4>;
    for (var k = 0u; k < NO4; k = k + 1u) {
        o0[k] = vec4<f32>(0.0);
        o1[k] = vec4<f32>(0.0);
        o2[k] = vec4<f32>(0.0);
        o3[k] = vec4<f32>(0.0);
    }

    // keys visible to this block: [0, kend)
    var kend = Lk;
    if CAUSAL { kend = u32(clamp(i32(q0 + BR) + shift, 0, i32(Lk))); }
    if !live { kend = 0u; }
    let ntiles = (kend + BC - 1u) / BC;

    // the pipeline: pf holds the next chunk (K chunk 0 of tile 0 to start)
    var pf: array<vec4<f32>, NPF>;
    for (var i = 0u; i < NPF; i = i + 1u) {
        let u = lid + WGS * i;
        pf[i] = vec4<f32>(0.0);
        if ntiles > 0u && u < KC * 16u { pf[i] = fetch_k(kb0, 0u, u / KC, u % KC, Lk, D); }
    }

    for (var t = 0u; t < ntiles; t = t + 1u) {
        let k0 = t * BC;
        // 1. S = q k^T: rows 4g .. 4g + 3 (s0 .. s3), keys k0 + 4c .. k0 + 4c + 3
        var s0 = vec4<f32>(0.0);
        var s1 = vec4<f32>(0.0);
        var s2 = vec4<f32>(0.0);
        var s3 = vec4<f32>(0.0);
        for (var dc = 0u; dc < DP; dc = dc + KC) {
            workgroupBarrier();
            for (var i = 0u; i < NPF; i = i + 1u) {
                let u = lid + WGS * i;
                if u < KC * 16u { kv[ki(u % KC, u / KC)] = pf[i]; }
            }
            workgroupBarrier();
            // fetch the next chunk: K of the next head dims, else V chunk 0 of this tile
            for (var i = 0u; i < NPF; i = i + 1u) {
                let u = lid + WGS * i;
                if dc + KC < DP {
                    if u < KC * 16u { pf[i] = fetch_k(kb0, k0, u / KC, dc + KC + u % KC, Lk, D); }
                } else if u < VC * D4 {
                    pf[i] = fetch_v(vb0, k0 + u / D4, u % D4, Lk, D);
                }
            }
            for (var d4 = 0u; d4 < KC / 4u; d4 = d4 + 1u) {
                let qd = dc / 4u + d4;
                let q0v = qs[qi(4u * g, qd)];
                let q1v = qs[qi(4u * g + 1u, qd)];
                let q2v = qs[qi(4u * g + 2u, qd)];
                let q3v = qs[qi(4u * g + 3u, qd)];
                let kx = kv[ki(4u * d4, c)];
                let ky = kv[ki(4u * d4 + 1u, c)];
                let kz = kv[ki(4u * d4 + 2u, c)];
                let kw = kv[ki(4u * d4 + 3u, c)];
                s0 = fma(vec4<f32>(q0v.x), kx, s0);
                s1 = fma(vec4<f32>(q1v.x), kx, s1);
                s2 = fma(vec4<f32>(q2v.x), kx, s2);
                s3 = fma(vec4<f32>(q3v.x), kx, s3);
                s0 = fma(vec4<f32>(q0v.y), ky, s0);
                s1 = fma(vec4<f32>(q1v.y), ky, s1);
                s2 = fma(vec4<f32>(q2v.y), ky, s2);
                s3 = fma(vec4<f32>(q3v.y), ky, s3);
                s0 = fma(vec4<f32>(q0v.z), kz, s0);
                s1 = fma(vec4<f32>(q1v.z), kz, s1);
                s2 = fma(vec4<f32>(q2v.z), kz, s2);
                s3 = fma(vec4<f32>(q3v.z), kz, s3);
                s0 = fma(vec4<f32>(q0v.w), kw, s0);
                s1 = fma(vec4<f32>(q1v.w), kw, s1);
                s2 = fma(vec4<f32>(q2v.w), kw, s2);
                s3 = fma(vec4<f32>(q3v.w), kw, s3);
            }
        }
        // 2. mask, row maxima, online rescale, P
        let jv = vec4<i32>(i32(k0 + 4u * c)) + vec4<i32>(0, 1, 2, 3);
        let inb = jv < vec4<i32>(i32(Lk));
        let ni = vec4<f32>(neg_inf());
        let ib = i32(q0 + 4u * g) + shift;
        var ok0 = inb;
        var ok1 = inb;
        var ok2 = inb;
        var ok3 = inb;
        if CAUSAL {
            ok0 = ok0 & (jv <= vec4<i32>(ib));
            ok1 = ok1 & (jv <= vec4<i32>(ib + 1));
            ok2 = ok2 & (jv <= vec4<i32>(ib + 2));
            ok3 = ok3 & (jv <= vec4<i32>(ib + 3));
        }
        s0 = select(ni, s0, ok0);
        s1 = select(ni, s1, ok1);
        s2 = select(ni, s2, ok2);
        s3 = select(ni, s3, ok3);
        var mx = vec4<f32>(hmax(s0), hmax(s1), hmax(s2), hmax(s3));
        ps[g * 16u + c] = mx;
        workgroupBarrier();
        for (var u = 0u; u < 16u; u = u + 1u) { mx = max(mx, ps[g * 16u + u]); }
        workgroupBarrier();
        let mn = max(m, mx);
        let mu = select(mn, vec4<f32>(0.0), mn == ni);
        let alpha = exp(m - mu);
        m = mn;
        l = l * alpha;
        for (var k = 0u; k < NO4; k = k + 1u) {
            o0[k] = o0[k] * alpha.x;
            o1[k] = o1[k] * alpha.y;
            o2[k] = o2[k] * alpha.z;
            o3[k] = o3[k] * alpha.w;
        }
        ps[pi(4u * g, c)] = exp(s0 - vec4<f32>(mu.x));
        ps[pi(4u * g + 1u, c)] = exp(s1 - vec4<f32>(mu.y));
        ps[pi(4u * g + 2u, c)] = exp(s2 - vec4<f32>(mu.z));
        ps[pi(4u * g + 3u, c)] = exp(s3 - vec4<f32>(mu.w));
        // 3. O += P V
        for (var jc = 0u; jc < BC; jc = jc + VC) {
            workgroupBarrier();
            for (var i = 0u; i < NPF; i = i + 1u) {
                let u = lid + WGS * i;
                if u < VC * D4 { kv[u] = pf[i]; }
            }
            workgroupBarrier();
            // fetch the next chunk: the next V chunk, else K chunk 0 of the next tile
            for (var i = 0u; i < NPF; i = i + 1u) {
                let u = lid + WGS * i;
                if jc + VC < BC {
                    if u < VC * D4 { pf[i] = fetch_v(vb0, k0 + jc + VC + u / D4, u % D4, Lk, D); }
                } else if t + 1u < ntiles && u < KC * 16u {
                    pf[i] = fetch_k(kb0, k0 + BC, u / KC, u % KC, Lk, D);
                }
            }
            for (var j4 = 0u; j4 < VC / 4u; j4 = j4 + 1u) {
                let pj = jc / 4u + j4;
                let p0 = ps[pi(4u * g, pj)];
                let p1 = ps[pi(4u * g + 1u, pj)];
                let p2 = ps[pi(4u * g + 2u, pj)];
                let p3 = ps[pi(4u * g + 3u, pj)];
                l = l + vec4<f32>(hsum(p0), hsum(p1), hsum(p2), hsum(p3));
                let vr = (4u * j4) * D4;
                for (var k = 0u; k < NO4; k = k + 1u) {
                    let col = min(c + 16u * k, D4 - 1u);
                    let vx = kv[vr + col];
                    let vy = kv[vr + D4 + col];
                    let vz = kv[vr + 2u * D4 + col];
                    let vw = kv[vr + 3u * D4 + col];
                    o0[k] = fma(vec4<f32>(p0.x), vx, o0[k]);
                    o1[k] = fma(vec4<f32>(p1.x), vx, o1[k]);
                    o2[k] = fma(vec4<f32>(p2.x), vx, o2[k]);
                    o3[k] = fma(vec4<f32>(p3.x), vx, o3[k]);
                    o0[k] = fma(vec4<f32>(p0.y), vy, o0[k]);
                    o1[k] = fma(vec4<f32>(p1.y), vy, o1[k]);
                    o2[k] = fma(vec4<f32>(p2.y), vy, o2[k]);
                    o3[k] = fma(vec4<f32>(p3.y), vy, o3[k]);
                    o0[k] = fma(vec4<f32>(p0.z), vz, o0[k]);
                    o1[k] = fma(vec4<f32>(p1.z), vz, o1[k]);
                    o2[k] = fma(vec4<f32>(p2.z), vz, o2[k]);
                    o3[k] = fma(vec4<f32>(p3.z), vz, o3[k]);
                    o0[k] = fma(vec4<f32>(p0.w), vw, o0[k]);
                    o1[k] = fma(vec4<f32>(p1.w), vw, o1[k]);
                    o2[k] = fma(vec4<f32>(p2.w), vw, o2[k]);
                    o3[k] = fma(vec4<f32>(p3.w), vw, o3[k]);
                }
            }
        }
    }

    if live {
        let inv = select(vec4<f32>(1.0) / l, vec4<f32>(0.0), l == vec4<f32>(0.0));
        for (var k = 0u; k < NO4; k = k + 1u) {
            let e4 = c + 16u * k;
            if e4 < D4 {
                store_row(q0 + 4u * g, e4, o0[k] * inv.x, Lq, D, bh);
                store_row(q0 + 4u * g + 1u, e4, o1[k] * inv.y, Lq, D, bh);
                store_row(q0 + 4u * g + 2u, e4, o2[k] * inv.z, Lq, D, bh);
                store_row(q0 + 4u * g + 3u, e4, o3[k] * inv.w, Lq, D, bh);
            }
        }
    }
}

fn store_row(i: u32, e4: u32, y: vec4<f32>, Lq: u32, D: u32, bh: u32) {
    if i >= Lq { return; }
    let ob = (bh * Lq + i) * D + 4u * e4;
    for (var e = 0u; e < 4u; e = e + 1u) {
        if 4u * e4 + e < D { out[ob + e] = SO(y[e]); }
    }
}
