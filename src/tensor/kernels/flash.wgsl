// flash.wgsl - flash attention (src/tensor/attention.c): out = softmax(scale q k^T [causal]) v
// for one block of BR query rows of one (batch, head) per workgroup, streaming the keys in tiles
// of BC = 64 with an online softmax, so memory is O(sequence): the scores of a tile never leave
// the workgroup.  Lanes form groups of 16; group g owns rows 4g .. 4g + 3 and lane c of a group
// owns key columns 4c .. 4c + 3 of a tile and output column quads c, c + 16, ...  All shared
// memory traffic is 16-byte vectors, laid out (XOR-swizzled) so that no access conflicts on a
// bank.  Per key tile:
//   1. S = q k^T (BR x BC): K arrives in chunks of 32 head dims, stored d-major as quads of keys;
//      the scaled q tile stays in shared memory for the whole loop;
//   2. causal and out-of-range keys -> -inf; the lanes' row maxima meet in shared memory (in P's
//      place), the new row max m' rescales the running output and sum by exp(m - m'), and
//      P = exp(S - m') goes to shared memory;
//   3. O += P V: V arrives in chunks of VC keys, row-major; the lanes add their rows' P to the
//      running sums on the way.
// 32 KiB of workgroup memory in all (lavapipe's limit): q tile 16 KiB, K/V chunk 8 KiB, P 8 KiB.
// A row that sees no key (causal with more queries than keys) gives zeros.  All arithmetic is
// f32 (f16 storage is widened on load, rounded once on store).
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
const KC: u32 = min(32u, DP);                 // head dims per K chunk
const VC: u32 = min(BC, 2048u / DP);          // keys per V chunk
const QM: u32 = min(D4, 8u) - 1u;             // q swizzle mask

var<workgroup> qs: array<vec4<f32>, BR * D4>;
var<workgroup> kv: array<vec4<f32>, 512>;     // K chunk (KC x 16 key quads) or V chunk (VC x D4)
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

    var m: array<f32, 4>;
    var l: array<f32, 4>;
    var o: array<array<vec4<f32>, NO4>, 4>;
    for (var ri = 0u; ri < 4u; ri = ri + 1u) {
        m[ri] = neg_inf();
        l[ri] = 0.0;
        for (var k = 0u; k < NO4; k = k + 1u) { o[ri][k] = vec4<f32>(0.0); }
    }

    // keys visible to this block: [0, kend)
    var kend = Lk;
    if CAUSAL { kend = u32(clamp(i32(q0 + BR) + shift, 0, i32(Lk))); }
    if !live { kend = 0u; }
    let ntiles = (kend + BC - 1u) / BC;

    for (var t = 0u; t < ntiles; t = t + 1u) {
        let k0 = t * BC;
        // 1. S = q k^T: row 4g + ri, keys k0 + 4c .. k0 + 4c + 3
        var s: array<vec4<f32>, 4>;
        for (var ri = 0u; ri < 4u; ri = ri + 1u) { s[ri] = vec4<f32>(0.0); }
        for (var dc = 0u; dc < DP; dc = dc + KC) {
            workgroupBarrier();
            for (var u = lid; u < KC * 16u; u = u + WGS) {
                let d = u % KC;
                let jg = u / KC;
                var x = vec4<f32>(0.0);
                if dc + d < D {
                    for (var e = 0u; e < 4u; e = e + 1u) {
                        let j = k0 + 4u * jg + e;
                        if j < Lk { x[e] = f32(kb[sidx(1u, b, hk, j, dc + d)]); }
                    }
                }
                kv[ki(d, jg)] = x;
            }
            workgroupBarrier();
            for (var d4 = 0u; d4 < KC / 4u; d4 = d4 + 1u) {
                var qv: array<vec4<f32>, 4>;
                for (var ri = 0u; ri < 4u; ri = ri + 1u) { qv[ri] = qs[qi(4u * g + ri, dc / 4u + d4)]; }
                for (var e = 0u; e < 4u; e = e + 1u) {
                    let kx = kv[ki(4u * d4 + e, c)];
                    for (var ri = 0u; ri < 4u; ri = ri + 1u) { s[ri] = fma(vec4<f32>(qv[ri][e]), kx, s[ri]); }
                }
            }
        }
        // 2. mask, row maxima, online rescale, P
        var mx = vec4<f32>(neg_inf());
        for (var ri = 0u; ri < 4u; ri = ri + 1u) {
            let i = i32(q0 + 4u * g + ri);
            for (var e = 0u; e < 4u; e = e + 1u) {
                let j = k0 + 4u * c + e;
                var ok = j < Lk;
                if CAUSAL { ok = ok && i32(j) <= i + shift; }
                if !ok { s[ri][e] = neg_inf(); }
            }
            mx[ri] = hmax(s[ri]);
        }
        ps[g * 16u + c] = mx;
        workgroupBarrier();
        for (var u = 0u; u < 16u; u = u + 1u) { mx = max(mx, ps[g * 16u + u]); }
        workgroupBarrier();
        for (var ri = 0u; ri < 4u; ri = ri + 1u) {
            let mn = max(m[ri], mx[ri]);
            let mu = select(mn, 0.0, mn == neg_inf());
            let alpha = exp(m[ri] - mu);
            m[ri] = mn;
            l[ri] = l[ri] * alpha;
            for (var k = 0u; k < NO4; k = k + 1u) { o[ri][k] = o[ri][k] * alpha; }
            ps[pi(4u * g + ri, c)] = exp(s[ri] - vec4<f32>(mu));
        }
        // 3. O += P V
        for (var jc = 0u; jc < BC; jc = jc + VC) {
            workgroupBarrier();
            for (var u = lid; u < VC * D4; u = u + WGS) {
                let j = u / D4;
                let e4 = u % D4;
                var x = vec4<f32>(0.0);
                if k0 + jc + j < Lk {
                    for (var e = 0u; e < 4u; e = e + 1u) {
                        if 4u * e4 + e < D { x[e] = f32(vb[sidx(2u, b, hk, k0 + jc + j, 4u * e4 + e)]); }
                    }
                }
                kv[j * D4 + e4] = x;
            }
            workgroupBarrier();
            for (var j4 = 0u; j4 < VC / 4u; j4 = j4 + 1u) {
                var pv: array<vec4<f32>, 4>;
                for (var ri = 0u; ri < 4u; ri = ri + 1u) {
                    pv[ri] = ps[pi(4u * g + ri, jc / 4u + j4)];
                    l[ri] = l[ri] + (pv[ri].x + pv[ri].y) + (pv[ri].z + pv[ri].w);
                }
                for (var e = 0u; e < 4u; e = e + 1u) {
                    let j = 4u * j4 + e;
                    for (var k = 0u; k < NO4; k = k + 1u) {
                        let vx = kv[j * D4 + min(c + 16u * k, D4 - 1u)];
                        for (var ri = 0u; ri < 4u; ri = ri + 1u) { o[ri][k] = fma(vec4<f32>(pv[ri][e]), vx, o[ri][k]); }
                    }
                }
            }
        }
    }

    if live {
        for (var ri = 0u; ri < 4u; ri = ri + 1u) {
            let i = q0 + 4u * g + ri;
            if i < Lq {
                let inv = select(1.0 / l[ri], 0.0, l[ri] == 0.0);
                let ob = (bh * Lq + i) * D;
                for (var k = 0u; k < NO4; k = k + 1u) {
                    let e4 = c + 16u * k;
                    if e4 < D4 {
                        let y = o[ri][k] * inv;
                        for (var e = 0u; e < 4u; e = e + 1u) {
                            if 4u * e4 + e < D { out[ob + 4u * e4 + e] = SO(y[e]); }
                        }
                    }
                }
            }
        }
    }
}
