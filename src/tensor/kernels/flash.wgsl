// flash.wgsl - flash attention (src/tensor/attention.c): out = softmax(scale q k^T [causal]) v
// for one block of BR query rows of one (batch, head) per 128-lane workgroup, streaming the keys
// in tiles of BC = 64 with an online softmax, so memory is O(sequence): the scores of a tile
// never leave the workgroup.  Per key tile:
//   1. S = q k^T for BR x BC: K arrives in chunks of 32 head dims, stored d-major; each lane
//      owns 4 rows x NS columns (columns lane, lane + TPG, ...),
//      the scaled q tile stays in shared memory for the whole loop;
//   2. causal and out-of-range keys -> -inf; each lane's row maxima meet in shared memory (in
//      P's place, one extra barrier), the
//      new row max m' rescales the running output and sum by exp(m - m'), P = exp(S - m') goes
//      to shared memory;
//   3. O += P V: V arrives in chunks of VC keys; each lane owns 4 rows x NO output columns and
//      adds its rows' P to the running sums on the way.
// A row that sees no key (causal with more queries than keys) gives zeros.  All arithmetic is
// f32 (f16 storage is widened on load, rounded once on store).
// Specialisation: MA = log2(DP / 16), DP = the head dim rounded up to a power of two (16..256;
// zero-padded); MC bit 0 causal (query i sees keys j <= i + Lk - Lq: aligned to the end, a KV
// cache).  Inputs a = q, b = k, c = v, any strides: P.st[0] / st[2] / st[4] = (batch, head, row,
// dim) strides of q / k / v, P.off = their offsets; P.shape[0] = (B, H, Lq, Lk), P.shape[1] =
// (D, heads per KV head (GQA), query blocks, 0); P.sv.x = scale.  Output [B, H, Lq, D]
// contiguous.  P.n = workgroups * 256 (src/tensor/batch.c counts 256-wide groups).

@group(0) @binding(0) var<storage, read_write> out: array<SO>;
@group(0) @binding(1) var<storage, read> qb: array<SA>;
@group(0) @binding(2) var<storage, read> kb: array<SB>;
@group(0) @binding(3) var<storage, read> vb: array<SC>;

const CAUSAL: bool = (MC & 1u) != 0u;
const DP: u32 = 16u << MA;                  // padded head dim
const BR: u32 = select(32u, 16u, DP > 128u);  // query rows per workgroup
const BC: u32 = 64u;                        // keys per tile
const TPG: u32 = 512u / BR;                 // lanes per group of 4 rows (16 or 32)
const NS: u32 = BC / TPG;                   // score columns per lane
const NO: u32 = max(DP / TPG, 1u);          // output columns per lane
const KC: u32 = min(32u, DP);               // head dims per K chunk
const VC: u32 = min(BC, 2048u / DP);        // keys per V chunk

// 32 KiB in all (lavapipe's limit): q tile 16 KiB, K/V chunk 8 KiB, P (and the partial row
// maxima before it) 8 KiB.  The q tile and the d-major K chunk are swizzled, not padded, against
// bank conflicts.
var<workgroup> qs: array<f32, BR * DP>;
var<workgroup> kv: array<f32, 2048>;        // K chunk (KC x BC, d-major) or V chunk (VC x DP)
var<workgroup> ps: array<f32, BR * BC>;     // P, or BR x TPG partial row maxima

fn qi(r: u32, d: u32) -> u32 {
    return r * DP + ((d + (r >> 2u)) & (DP - 1u));
}

fn ki(d: u32, j: u32) -> u32 {
    return d * BC + (j ^ (d & 31u));
}

fn neg_inf() -> f32 {
    return bitcast<f32>(0xff800000u | P.pad0);
}

fn sidx(k: u32, b: u32, h: u32, r: u32, d: u32) -> u32 {
    let s = P.st[2u * k];
    return u32(i32(P.off[k]) + i32(b) * s.x + i32(h) * s.y + i32(r) * s.z + i32(d) * s.w);
}

@compute @workgroup_size(128)
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
    let g = lid / TPG;                    // row group: rows 4g .. 4g + 3
    let c = lid % TPG;

    // the q tile, scaled, zero-padded
    for (var u = lid; u < BR * DP; u = u + 128u) {
        let r = u / DP;
        let d = u % DP;
        var x = 0.0;
        if live && q0 + r < Lq && d < D { x = f32(qb[sidx(0u, b, h, q0 + r, d)]) * scale; }
        qs[qi(r, d)] = x;
    }

    var m: array<f32, 4>;
    var l: array<f32, 4>;
    var o: array<array<f32, NO>, 4>;
    for (var ri = 0u; ri < 4u; ri = ri + 1u) {
        m[ri] = neg_inf();
        l[ri] = 0.0;
        for (var e = 0u; e < NO; e = e + 1u) { o[ri][e] = 0.0; }
    }

    // keys visible to this block: [0, kend)
    var kend = Lk;
    if CAUSAL {
        let last = i32(q0 + BR - 1u) + i32(Lk) - i32(Lq);
        kend = u32(clamp(last + 1, 0, i32(Lk)));
    }
    if !live { kend = 0u; }
    let ntiles = (kend + BC - 1u) / BC;

    for (var t = 0u; t < ntiles; t = t + 1u) {
        let k0 = t * BC;
        // 1. S = q k^T
        var s: array<array<f32, NS>, 4>;
        for (var ri = 0u; ri < 4u; ri = ri + 1u) {
            for (var jj = 0u; jj < NS; jj = jj + 1u) { s[ri][jj] = 0.0; }
        }
        for (var dc = 0u; dc < DP; dc = dc + KC) {
            workgroupBarrier();
            for (var u = lid; u < BC * KC; u = u + 128u) {
                let j = u / KC;
                let d = u % KC;
                var x = 0.0;
                if k0 + j < Lk && dc + d < D { x = f32(kb[sidx(1u, b, hk, k0 + j, dc + d)]); }
                kv[ki(d, j)] = x;
            }
            workgroupBarrier();
            for (var d = 0u; d < KC; d = d + 1u) {
                var qv: array<f32, 4>;
                for (var ri = 0u; ri < 4u; ri = ri + 1u) { qv[ri] = qs[qi(4u * g + ri, dc + d)]; }
                for (var jj = 0u; jj < NS; jj = jj + 1u) {
                    let kx = kv[ki(d, c + TPG * jj)];
                    for (var ri = 0u; ri < 4u; ri = ri + 1u) { s[ri][jj] = fma(qv[ri], kx, s[ri][jj]); }
                }
            }
        }
        // 2. mask, row maxima, online rescale, P
        for (var ri = 0u; ri < 4u; ri = ri + 1u) {
            let i = q0 + 4u * g + ri;
            var mx = neg_inf();
            for (var jj = 0u; jj < NS; jj = jj + 1u) {
                let j = k0 + c + TPG * jj;
                var ok = j < Lk;
                if CAUSAL { ok = ok && i32(j) <= i32(i) + i32(Lk) - i32(Lq); }
                if !ok { s[ri][jj] = neg_inf(); }
                mx = max(mx, s[ri][jj]);
            }
            ps[(4u * g + ri) * TPG + c] = mx;
        }
        workgroupBarrier();
        var mxs: array<f32, 4>;
        for (var ri = 0u; ri < 4u; ri = ri + 1u) {
            var mx = m[ri];
            for (var u = 0u; u < TPG; u = u + 1u) { mx = max(mx, ps[(4u * g + ri) * TPG + u]); }
            mxs[ri] = mx;
        }
        workgroupBarrier();
        for (var ri = 0u; ri < 4u; ri = ri + 1u) {
            let row = 4u * g + ri;
            let mx = mxs[ri];
            let mu = select(mx, 0.0, mx == neg_inf());
            let alpha = exp(m[ri] - mu);
            m[ri] = mx;
            l[ri] = l[ri] * alpha;
            for (var e = 0u; e < NO; e = e + 1u) { o[ri][e] = o[ri][e] * alpha; }
            for (var jj = 0u; jj < NS; jj = jj + 1u) { ps[row * BC + c + TPG * jj] = exp(s[ri][jj] - mu); }
        }
        // 3. O += P V
        for (var jc = 0u; jc < BC; jc = jc + VC) {
            workgroupBarrier();
            for (var u = lid; u < VC * DP; u = u + 128u) {
                let j = u / DP;
                let e = u % DP;
                var x = 0.0;
                if k0 + jc + j < Lk && e < D { x = f32(vb[sidx(2u, b, hk, k0 + jc + j, e)]); }
                kv[j * DP + e] = x;
            }
            workgroupBarrier();
            for (var j = 0u; j < VC; j = j + 1u) {
                var pv: array<f32, 4>;
                for (var ri = 0u; ri < 4u; ri = ri + 1u) {
                    pv[ri] = ps[(4u * g + ri) * BC + jc + j];
                    l[ri] = l[ri] + pv[ri];
                }
                for (var e = 0u; e < NO; e = e + 1u) {
                    let vx = kv[j * DP + c + TPG * e];
                    for (var ri = 0u; ri < 4u; ri = ri + 1u) { o[ri][e] = fma(pv[ri], vx, o[ri][e]); }
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
                for (var e = 0u; e < NO; e = e + 1u) {
                    let col = c + TPG * e;
                    if col < D { out[ob + col] = SO(o[ri][e] * inv); }
                }
            }
        }
    }
}
