// attn_bw.wgsl - the backward pass of scaled dot-product attention, flash style
// (src/tensor/attention_backward.c): memory O(sequence), the probabilities recomputed tile by tile
// as P = exp(scale q k^T - lse) from each query row's logsumexp, never stored.  With
// delta_i = sum_d dO[i, d] O[i, d] and dS = P (dP - delta), dP = dO v^T:
//   dq = scale dS k,   dk = scale dS^T q,   dv = P^T dO.
// Three ops, each a 256-lane workgroup of 16 x 16 lanes over 16 x 16 tiles of (query, key):
//   OP 0 stats: per 16 query rows, delta and the online (max, sum) over every key tile -> out
//        [B H Lq, 2] = (lse, delta) (a row that sees no key gets lse 3e38: P = 0);
//   OP 1 dq: per 16 query rows, over the key tiles (causal: only those with a visible key);
//   OP 2 dk, dv: per 16 keys of one KV head, over the query heads sharing it (grouped-query:
//        their contributions summed) and their query tiles (causal: from the first row that sees
//        the tile); out = [2, B Hkv, Lk, D]: dk, then dv.
// Head dims go through shared memory in chunks of 64, as 16 vec4s per row (row stride 17 vec4s:
// the lanes of a dot product read distinct banks; 16-byte reads); with one chunk (D <= 64) the
// tiles that do not change along the loop are loaded once.  Lane (r, c) = (t / 16, t % 16) loads
// quad c of row r of each tile, computes one score of the tile, then owns head dims 4c .. 4c + 3
// of each chunk of row r in the accumulations (a vec4 per chunk: D <= 256).
// Inputs: a = [2, B H, Lq, D] (q, then dO), b = [2, B Hkv, Lk, D] (k, then v), c = the output
// O [B H, Lq, D] (OP 0) or the stats (OP 1, 2); all contiguous.  MC bit 0: causal (query i sees
// keys j <= i + Lk - Lq, as the forward).  Params: shape[0] = (B, H, Lq, Lk), shape[1] = (D,
// heads per KV head G, tiles per (batch, head), chunks of 64 head dims), sv.x = scale.

@group(0) @binding(0) var<storage, read_write> out: array<SO>;
@group(0) @binding(1) var<storage, read> qd: array<SA>;
@group(0) @binding(2) var<storage, read> kv: array<SB>;
@group(0) @binding(3) var<storage, read> sc: array<SC>;

const CAUSAL: bool = (MC & 1u) != 0u;
const RS: u32 = 17u;

var<workgroup> t0: array<vec4<f32>, 272>;   // 16 rows x 16 quads (stride 17): q
var<workgroup> t1: array<vec4<f32>, 272>;   // dO
var<workgroup> t2: array<vec4<f32>, 272>;   // k
var<workgroup> t3: array<vec4<f32>, 272>;   // v
var<workgroup> sp: array<f32, 272>;    // 16 x 17: scores, P
var<workgroup> sd: array<f32, 272>;    // dS

fn neg_inf() -> f32 {
    return bitcast<f32>(0xff800000u | P.pad0);
}

// the lane's quad of a 16 x 64 tile: row base + r D (r = t / 16 < nrows), dims dc 64 + 4 (t % 16)
// + u (zero past D)
fn ld_a(base: u32, nrows: u32, dc: u32, t: u32) -> vec4<f32> {
    let D = P.shape[1].x;
    let r = t / 16u;
    var v = vec4<f32>(0.0);
    for (var u = 0u; u < 4u; u++) {
        let d = dc * 64u + 4u * (t % 16u) + u;
        if r < nrows && d < D { v[u] = f32(qd[base + r * D + d]); }
    }
    return v;
}

fn ld_b(base: u32, nrows: u32, dc: u32, t: u32) -> vec4<f32> {
    let D = P.shape[1].x;
    let r = t / 16u;
    var v = vec4<f32>(0.0);
    for (var u = 0u; u < 4u; u++) {
        let d = dc * 64u + 4u * (t % 16u) + u;
        if r < nrows && d < D { v[u] = f32(kv[base + r * D + d]); }
    }
    return v;
}

fn st0(t: u32, v: vec4<f32>) { t0[(t / 16u) * RS + t % 16u] = v; }
fn st1(t: u32, v: vec4<f32>) { t1[(t / 16u) * RS + t % 16u] = v; }
fn st2(t: u32, v: vec4<f32>) { t2[(t / 16u) * RS + t % 16u] = v; }
fn st3(t: u32, v: vec4<f32>) { t3[(t / 16u) * RS + t % 16u] = v; }

// may query row i see key j?
fn visible(i: u32, j: u32) -> bool {
    let Lq = P.shape[0].z;
    let Lk = P.shape[0].w;
    if i >= Lq || j >= Lk { return false; }
    if CAUSAL { return i32(j) <= i32(i) + i32(Lk) - i32(Lq); }
    return true;
}

// key tiles a query tile at row i0 needs: all, or (causal) up to its last row's last visible key
fn key_tiles(i0: u32) -> u32 {
    let Lq = P.shape[0].z;
    let Lk = P.shape[0].w;
    let nk = (Lk + 15u) / 16u;
    if !CAUSAL { return nk; }
    let last = i32(min(i0 + 15u, Lq - 1u)) + i32(Lk) - i32(Lq);
    if last < 0 { return 0u; }
    return min(nk, u32(last) / 16u + 1u);
}

@compute @workgroup_size(256)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) t: u32) {
    let wg = wid.y * P.gx + wid.x;
    if wg >= P.n / 256u { return; }
    let H = P.shape[0].y;
    let Lq = P.shape[0].z;
    let Lk = P.shape[0].w;
    let D = P.shape[1].x;
    let G = P.shape[1].y;
    let ntile = P.shape[1].z;
    let nch = P.shape[1].w;
    let BH = P.shape[0].x * H;
    let Hkv = H / G;
    let scale = bitcast<f32>(P.sv.x);
    let r = t / 16u;
    let c = t % 16u;
    if OP == 2u {
        dkv(wg, t, r, c);
        return;
    }
    let bh = wg / ntile;
    let i0 = (wg - bh * ntile) * 16u;
    let i = i0 + r;
    let kvb = (bh / H) * Hkv + (bh % H) / G;
    let qb = (bh * Lq + i0) * D;            // q rows of the tile
    let ob = ((BH + bh) * Lq + i0) * D;     // dO rows
    let kb = kvb * Lk * D;
    let vb = ((BH / G) + kvb) * Lk * D;
    let nq = min(16u, Lq - i0);
    let nkt = key_tiles(i0);
    if nch == 1u {
        st0(t, ld_a(qb, nq, 0u, t));
        if OP == 1u { st1(t, ld_a(ob, nq, 0u, t)); }
    }
    if OP == 0u {
        // delta_i = dO_i . O_i
        var dl = 0.0;
        if i < Lq {
            for (var d = c; d < D; d += 16u) {
                dl = dl + f32(qd[ob + r * D + d]) * f32(sc[(bh * Lq + i) * D + d]);
            }
        }
        sp[r * 17u + c] = dl;
        workgroupBarrier();
        var delta = 0.0;
        for (var jj = 0u; jj < 16u; jj++) { delta = delta + sp[r * 17u + jj]; }
        workgroupBarrier();
        var m = neg_inf();
        var l = 0.0;
        for (var kt = 0u; kt < nkt; kt++) {
            let j0 = kt * 16u;
            var s = 0.0;
            for (var dc = 0u; dc < nch; dc++) {
                if nch > 1u { st0(t, ld_a(qb, nq, dc, t)); }
                st2(t, ld_b(kb + j0 * D, min(16u, Lk - j0), dc, t));
                workgroupBarrier();
                let ec = (min(64u, D - dc * 64u) + 3u) / 4u;
                for (var e = 0u; e < ec; e++) { s = s + dot(t0[r * RS + e], t2[c * RS + e]); }
                workgroupBarrier();
            }
            sp[r * 17u + c] = select(neg_inf(), s * scale, visible(i, j0 + c));
            workgroupBarrier();
            if c == 0u {
                for (var jj = 0u; jj < 16u; jj++) {
                    let v = sp[r * 17u + jj];
                    if v > m {
                        l = l * exp(m - v) + 1.0;
                        m = v;
                    } else if v != neg_inf() {
                        l = l + exp(v - m);
                    }
                }
            }
            workgroupBarrier();
        }
        if c == 0u && i < Lq {
            out[2u * (bh * Lq + i)] = SO(select(m + log(l), 3.0e38, l == 0.0));
            out[2u * (bh * Lq + i) + 1u] = SO(delta);
        }
        return;
    }
    // OP 1: dq
    var lse = 0.0;
    var delta = 0.0;
    if i < Lq {
        lse = f32(sc[2u * (bh * Lq + i)]);
        delta = f32(sc[2u * (bh * Lq + i) + 1u]);
    }
    var acc: array<vec4<f32>, 4>;
    for (var u = 0u; u < 4u; u++) { acc[u] = vec4<f32>(0.0); }
    for (var kt = 0u; kt < nkt; kt++) {
        let j0 = kt * 16u;
        let nk = min(16u, Lk - j0);
        var s = 0.0;
        var dp = 0.0;
        for (var dc = 0u; dc < nch; dc++) {
            if nch > 1u {
                st0(t, ld_a(qb, nq, dc, t));
                st1(t, ld_a(ob, nq, dc, t));
            }
            st2(t, ld_b(kb + j0 * D, nk, dc, t));
            st3(t, ld_b(vb + j0 * D, nk, dc, t));
            workgroupBarrier();
            let ec = (min(64u, D - dc * 64u) + 3u) / 4u;
            for (var e = 0u; e < ec; e++) {
                s = s + dot(t0[r * RS + e], t2[c * RS + e]);
                dp = dp + dot(t1[r * RS + e], t3[c * RS + e]);
            }
            workgroupBarrier();
        }
        var p = 0.0;
        if visible(i, j0 + c) { p = exp(s * scale - lse); }
        sd[r * 17u + c] = p * (dp - delta);
        workgroupBarrier();
        for (var dc = 0u; dc < nch; dc++) {
            if nch > 1u {
                st2(t, ld_b(kb + j0 * D, nk, dc, t));
                workgroupBarrier();
            }
            var a = acc[dc];
            for (var jj = 0u; jj < 16u; jj++) { a = fma(vec4<f32>(sd[r * 17u + jj]), t2[jj * RS + c], a); }
            acc[dc] = a;
            workgroupBarrier();
        }
    }
    if i < Lq {
        for (var dc = 0u; dc < nch; dc++) {
            for (var u = 0u; u < 4u; u++) {
                let d = dc * 64u + 4u * c + u;
                if d < D { out[(bh * Lq + i) * D + d] = SO(acc[dc][u] * scale); }
            }
        }
    }
}

// OP 2: dk and dv of 16 keys of one (batch, KV head); lane (r, c): key r of the tile, query c
fn dkv(wg: u32, t: u32, r: u32, c: u32) {
    let H = P.shape[0].y;
    let Lq = P.shape[0].z;
    let Lk = P.shape[0].w;
    let D = P.shape[1].x;
    let G = P.shape[1].y;
    let ntile = P.shape[1].z;
    let nch = P.shape[1].w;
    let BH = P.shape[0].x * H;
    let Hkv = H / G;
    let scale = bitcast<f32>(P.sv.x);
    let kvb = wg / ntile;
    let j0 = (wg - kvb * ntile) * 16u;
    let j = j0 + r;
    let b = kvb / Hkv;
    let kvh = kvb - b * Hkv;
    let kb = (kvb * Lk + j0) * D;
    let vb = ((BH / G + kvb) * Lk + j0) * D;
    let nk = min(16u, Lk - j0);
    var qt0 = 0u;
    if CAUSAL {   // the first row that sees key j0: i >= j0 - (Lk - Lq)
        qt0 = u32(max(i32(j0) - i32(Lk) + i32(Lq), 0)) / 16u;
    }
    let nqt = (Lq + 15u) / 16u;
    if nch == 1u {
        st2(t, ld_b(kb, nk, 0u, t));
        st3(t, ld_b(vb, nk, 0u, t));
    }
    var ak: array<vec4<f32>, 4>;
    var av: array<vec4<f32>, 4>;
    for (var u = 0u; u < 4u; u++) {
        ak[u] = vec4<f32>(0.0);
        av[u] = vec4<f32>(0.0);
    }
    for (var hh = 0u; hh < G; hh++) {
        let bh = b * H + kvh * G + hh;
        for (var qt = qt0; qt < nqt; qt++) {
            let i0 = qt * 16u;
            let i = i0 + c;
            let nq = min(16u, Lq - i0);
            let qb = (bh * Lq + i0) * D;
            let ob = ((BH + bh) * Lq + i0) * D;
            var lse = 0.0;
            var delta = 0.0;
            if i < Lq {
                lse = f32(sc[2u * (bh * Lq + i)]);
                delta = f32(sc[2u * (bh * Lq + i) + 1u]);
            }
            var s = 0.0;
            var dp = 0.0;
            for (var dc = 0u; dc < nch; dc++) {
                st0(t, ld_a(qb, nq, dc, t));
                st1(t, ld_a(ob, nq, dc, t));
                if nch > 1u {
                    st2(t, ld_b(kb, nk, dc, t));
                    st3(t, ld_b(vb, nk, dc, t));
                }
                workgroupBarrier();
                let ec = (min(64u, D - dc * 64u) + 3u) / 4u;
                for (var e = 0u; e < ec; e++) {
                    s = s + dot(t2[r * RS + e], t0[c * RS + e]);
                    dp = dp + dot(t3[r * RS + e], t1[c * RS + e]);
                }
                workgroupBarrier();
            }
            var p = 0.0;
            if visible(i, j) { p = exp(s * scale - lse); }
            sp[r * 17u + c] = p;
            sd[r * 17u + c] = p * (dp - delta);
            workgroupBarrier();
            for (var dc = 0u; dc < nch; dc++) {
                if nch > 1u {
                    st0(t, ld_a(qb, nq, dc, t));
                    st1(t, ld_a(ob, nq, dc, t));
                    workgroupBarrier();
                }
                var a = ak[dc];
                var v = av[dc];
                for (var ii = 0u; ii < 16u; ii++) {
                    a = fma(vec4<f32>(sd[r * 17u + ii]), t0[ii * RS + c], a);
                    v = fma(vec4<f32>(sp[r * 17u + ii]), t1[ii * RS + c], v);
                }
                ak[dc] = a;
                av[dc] = v;
                workgroupBarrier();
            }
        }
    }
    if j < Lk {
        for (var dc = 0u; dc < nch; dc++) {
            for (var u = 0u; u < 4u; u++) {
                let d = dc * 64u + 4u * c + u;
                if d < D {
                    out[(kvb * Lk + j) * D + d] = SO(ak[dc][u] * scale);
                    out[((BH / G + kvb) * Lk + j) * D + d] = SO(av[dc][u]);
                }
            }
        }
    }
}
