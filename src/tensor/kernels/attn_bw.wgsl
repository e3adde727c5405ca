// attn_bw.wgsl - the backward pass of scaled dot-product attention, flash style
// (src/tensor/attention_backward.c): memory O(sequence), the probabilities recomputed tile by tile
// as P = exp(scale q k^T - lse) from each query row's logsumexp, never stored.  With
// delta_i = sum_d dO[i, d] O[i, d] and dS = P (dP - delta), dP = dO v^T:
//   dq = scale dS k,   dk = scale dS^T q,   dv = P^T dO.
// Three ops, each a 256-lane workgroup over 32 x 32 tiles of (own rows, other rows):
//   OP 0 stats: per 32 query rows, delta and the online (max, sum) over every key tile -> out
//        [B H Lq, 2] = (lse, delta) (a row that sees no key gets lse 3e38: P = 0);
//   OP 1 dq: per 32 query rows, over the key tiles (causal: only those with a visible key);
//   OP 2 dk, dv: per 32 keys of one KV head, over the query heads sharing it (grouped-query:
//        their contributions summed) and their query tiles (causal: from the first row that sees
//        the tile); out = [2, B Hkv, Lk, D]: dk, then dv.
// Head dims go through shared memory in NCH chunks of 32 (MA, a kernel constant: D <= 256), as 8
// vec4s per row (row stride 9 vec4s: the 8 lanes of a quarter warp reading rows c .. c + 7 hit
// distinct banks; 16-byte reads); with one chunk (D <= 32) the tiles that do not change along
// the loop are loaded once.  Loads: lane t puts quad t % 8 of row t / 8 of each 32 x 32 chunk.
// Scores: lane (r, c) = (t / 16, t % 16) computes the 2 x 2 block of own rows r, r + 16 and other
// rows c, c + 16 (four dot products from four 16-byte reads per quad: twice the multiply-adds per
// shared-memory read of one score per lane), into the 32 x 33 tiles sp (P) and sd (dS).
// Accumulation: lane t owns row t / 8 and quad t % 8 of each chunk (a vec4 per chunk).
// Inputs: a = [2, B H, Lq, D] (q, then dO), b = [2, B Hkv, Lk, D] (k, then v), c = the output
// O [B H, Lq, D] (OP 0) or the stats (OP 1, 2); all contiguous.  MC bit 0: causal (query i sees
// keys j <= i + Lk - Lq, as the forward).  Params: shape[0] = (B, H, Lq, Lk), shape[1] = (D,
// heads per KV head G, tiles per (batch, head), chunks of 32 head dims), sv.x = scale.
// Workgroup memory 26,880 bytes (fits the 32 KiB of lavapipe).

@group(0) @binding(0) var<storage, read_write> out: array<SO>;
@group(0) @binding(1) var<storage, read> qd: array<SA>;
@group(0) @binding(2) var<storage, read> kv: array<SB>;
@group(0) @binding(3) var<storage, read> sc: array<SC>;

const CAUSAL: bool = (MC & 1u) != 0u;
const NCH: u32 = MA;          // chunks of 32 head dims (1 .. 8)
const RS: u32 = 9u;           // vec4 row stride of a chunk tile
const SS: u32 = 33u;          // row stride of sp / sd

var<workgroup> t0: array<vec4<f32>, 288>;   // 32 rows x 8 quads (stride 9): q
var<workgroup> t1: array<vec4<f32>, 288>;   // dO
var<workgroup> t2: array<vec4<f32>, 288>;   // k
var<workgroup> t3: array<vec4<f32>, 288>;   // v
var<workgroup> sp: array<f32, 1056>;        // 32 x 33: scores, P
var<workgroup> sd: array<f32, 1056>;        // dS

fn neg_inf() -> f32 {
    return bitcast<f32>(0xff800000u | P.pad0);
}

// the lane's quad of a 32 x 32 chunk: row base + r D (r = t / 8 < nrows), dims dc 32 + 4 (t % 8)
// + u (zero past D)
fn ld_a(base: u32, nrows: u32, dc: u32, t: u32) -> vec4<f32> {
    let D = P.shape[1].x;
    let r = t / 8u;
    var v = vec4<f32>(0.0);
    for (var u = 0u; u < 4u; u++) {
        let d = dc * 32u + 4u * (t % 8u) + u;
        if r < nrows && d < D { v[u] = f32(qd[base + r * D + d]); }
    }
    return v;
}

fn ld_b(base: u32, nrows: u32, dc: u32, t: u32) -> vec4<f32> {
    let D = P.shape[1].x;
    let r = t / 8u;
    var v = vec4<f32>(0.0);
    for (var u = 0u; u < 4u; u++) {
        let d = dc * 32u + 4u * (t % 8u) + u;
        if r < nrows && d < D { v[u] = f32(kv[base + r * D + d]); }
    }
    return v;
}

fn st0(t: u32, v: vec4<f32>) { t0[(t / 8u) * RS + t % 8u] = v; }
fn st1(t: u32, v: vec4<f32>) { t1[(t / 8u) * RS + t % 8u] = v; }
fn st2(t: u32, v: vec4<f32>) { t2[(t / 8u) * RS + t % 8u] = v; }
fn st3(t: u32, v: vec4<f32>) { t3[(t / 8u) * RS + t % 8u] = v; }

// quads of chunk dc that hold head dims
fn quads(dc: u32) -> u32 {
    let D = P.shape[1].x;
    return (min(32u, D - dc * 32u) + 3u) / 4u;
}

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
    let nk = (Lk + 31u) / 32u;
    if !CAUSAL { return nk; }
    let last = i32(min(i0 + 31u, Lq - 1u)) + i32(Lk) - i32(Lq);
    if last < 0 { return 0u; }
    return min(nk, u32(last) / 32u + 1u);
}

// The 2 x 2 blocks of a chunk's dot products (ec quads): own tile rows r, r + 16 against other
// tile rows c, c + 16, added to s (s.x: (r, c), s.y: (r, c + 16), s.z: (r + 16, c), s.w: (r + 16,
// c + 16)).  dots02: own t0 (q), other t2 (k); dots13: dO against v; dots20: k against q; dots31:
// v against dO.
fn dots02(s: vec4<f32>, r: u32, c: u32, ec: u32) -> vec4<f32> {
    var acc = s;
    for (var e = 0u; e < ec; e++) {
        let a0 = t0[r * RS + e];
        let a1 = t0[(r + 16u) * RS + e];
        let b0 = t2[c * RS + e];
        let b1 = t2[(c + 16u) * RS + e];
        acc = acc + vec4<f32>(dot(a0, b0), dot(a0, b1), dot(a1, b0), dot(a1, b1));
    }
    return acc;
}

fn dots13(s: vec4<f32>, r: u32, c: u32, ec: u32) -> vec4<f32> {
    var acc = s;
    for (var e = 0u; e < ec; e++) {
        let a0 = t1[r * RS + e];
        let a1 = t1[(r + 16u) * RS + e];
        let b0 = t3[c * RS + e];
        let b1 = t3[(c + 16u) * RS + e];
        acc = acc + vec4<f32>(dot(a0, b0), dot(a0, b1), dot(a1, b0), dot(a1, b1));
    }
    return acc;
}

fn dots20(s: vec4<f32>, r: u32, c: u32, ec: u32) -> vec4<f32> {
    var acc = s;
    for (var e = 0u; e < ec; e++) {
        let a0 = t2[r * RS + e];
        let a1 = t2[(r + 16u) * RS + e];
        let b0 = t0[c * RS + e];
        let b1 = t0[(c + 16u) * RS + e];
        acc = acc + vec4<f32>(dot(a0, b0), dot(a0, b1), dot(a1, b0), dot(a1, b1));
    }
    return acc;
}

fn dots31(s: vec4<f32>, r: u32, c: u32, ec: u32) -> vec4<f32> {
    var acc = s;
    for (var e = 0u; e < ec; e++) {
        let a0 = t3[r * RS + e];
        let a1 = t3[(r + 16u) * RS + e];
        let b0 = t1[c * RS + e];
        let b1 = t1[(c + 16u) * RS + e];
        acc = acc + vec4<f32>(dot(a0, b0), dot(a0, b1), dot(a1, b0), dot(a1, b1));
    }
    return acc;
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
    let BH = P.shape[0].x * H;
    let Hkv = H / G;
    let scale = bitcast<f32>(P.sv.x);
    let r = t / 16u;
    let c = t % 16u;
    let ro = t / 8u;              // accumulation: own row
    let qo = t % 8u;              // and quad
    if OP == 2u {
        dkv(wg, t, r, c, ro, qo);
        return;
    }
    let bh = wg / ntile;
    let i0 = (wg - bh * ntile) * 32u;
    let kvb = (bh / H) * Hkv + (bh % H) / G;
    let qb = (bh * Lq + i0) * D;            // q rows of the tile
    let ob = ((BH + bh) * Lq + i0) * D;     // dO rows
    let kb = kvb * Lk * D;
    let vb = ((BH / G) + kvb) * Lk * D;
    let nq = min(32u, Lq - i0);
    let nkt = key_tiles(i0);
    if NCH == 1u {
        st0(t, ld_a(qb, nq, 0u, t));
        if OP == 1u { st1(t, ld_a(ob, nq, 0u, t)); }
    }
    if OP == 0u {
        // delta_i = dO_i . O_i: lane t sums dims t % 8, + 8, ... of row t / 8
        var dl = 0.0;
        if i0 + ro < Lq {
            for (var d = qo; d < D; d += 8u) {
                dl = dl + f32(qd[ob + ro * D + d]) * f32(sc[(bh * Lq + i0 + ro) * D + d]);
            }
        }
        sp[ro * SS + qo] = dl;
        workgroupBarrier();
        var delta = 0.0;
        if t < 32u {
            for (var jj = 0u; jj < 8u; jj++) { delta = delta + sp[t * SS + jj]; }
        }
        workgroupBarrier();
        var m = neg_inf();
        var l = 0.0;
        for (var kt = 0u; kt < nkt; kt++) {
            let j0 = kt * 32u;
            var s = vec4<f32>(0.0);
            for (var dc = 0u; dc < NCH; dc++) {
                if NCH > 1u { st0(t, ld_a(qb, nq, dc, t)); }
                st2(t, ld_b(kb + j0 * D, min(32u, Lk - j0), dc, t));
                workgroupBarrier();
                s = dots02(s, r, c, quads(dc));
                workgroupBarrier();
            }
            sp[r * SS + c] = select(neg_inf(), s.x * scale, visible(i0 + r, j0 + c));
            sp[r * SS + c + 16u] = select(neg_inf(), s.y * scale, visible(i0 + r, j0 + c + 16u));
            sp[(r + 16u) * SS + c] = select(neg_inf(), s.z * scale, visible(i0 + r + 16u, j0 + c));
            sp[(r + 16u) * SS + c + 16u] = select(neg_inf(), s.w * scale, visible(i0 + r + 16u, j0 + c + 16u));
            workgroupBarrier();
            if t < 32u {
                for (var jj = 0u; jj < 32u; jj++) {
                    let v = sp[t * SS + jj];
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
        if t < 32u && i0 + t < Lq {
            out[2u * (bh * Lq + i0 + t)] = SO(select(m + log(l), 3.0e38, l == 0.0));
            out[2u * (bh * Lq + i0 + t) + 1u] = SO(delta);
        }
        return;
    }
    // OP 1: dq.  Own rows i0 + r, i0 + r + 16: their (lse, delta).
    var lse0 = 0.0;
    var dl0 = 0.0;
    var lse1 = 0.0;
    var dl1 = 0.0;
    if i0 + r < Lq {
        lse0 = f32(sc[2u * (bh * Lq + i0 + r)]);
        dl0 = f32(sc[2u * (bh * Lq + i0 + r) + 1u]);
    }
    if i0 + r + 16u < Lq {
        lse1 = f32(sc[2u * (bh * Lq + i0 + r + 16u)]);
        dl1 = f32(sc[2u * (bh * Lq + i0 + r + 16u) + 1u]);
    }
    var acc: array<vec4<f32>, 8>;
    for (var u = 0u; u < 8u; u++) { acc[u] = vec4<f32>(0.0); }
    for (var kt = 0u; kt < nkt; kt++) {
        let j0 = kt * 32u;
        let nk = min(32u, Lk - j0);
        var s = vec4<f32>(0.0);
        var dp = vec4<f32>(0.0);
        for (var dc = 0u; dc < NCH; dc++) {
            if NCH > 1u {
                st0(t, ld_a(qb, nq, dc, t));
                st1(t, ld_a(ob, nq, dc, t));
            }
            st2(t, ld_b(kb + j0 * D, nk, dc, t));
            st3(t, ld_b(vb + j0 * D, nk, dc, t));
            workgroupBarrier();
            s = dots02(s, r, c, quads(dc));
            dp = dots13(dp, r, c, quads(dc));
            workgroupBarrier();
        }
        var p = vec4<f32>(0.0);
        if visible(i0 + r, j0 + c) { p.x = exp(s.x * scale - lse0); }
        if visible(i0 + r, j0 + c + 16u) { p.y = exp(s.y * scale - lse0); }
        if visible(i0 + r + 16u, j0 + c) { p.z = exp(s.z * scale - lse1); }
        if visible(i0 + r + 16u, j0 + c + 16u) { p.w = exp(s.w * scale - lse1); }
        sd[r * SS + c] = p.x * (dp.x - dl0);
        sd[r * SS + c + 16u] = p.y * (dp.y - dl0);
        sd[(r + 16u) * SS + c] = p.z * (dp.z - dl1);
        sd[(r + 16u) * SS + c + 16u] = p.w * (dp.w - dl1);
        workgroupBarrier();
        for (var dc = 0u; dc < NCH; dc++) {
            if NCH > 1u {
                st2(t, ld_b(kb + j0 * D, nk, dc, t));
                workgroupBarrier();
            }
            var a = acc[dc];
            for (var jj = 0u; jj < 32u; jj++) { a = fma(vec4<f32>(sd[ro * SS + jj]), t2[jj * RS + qo], a); }
            acc[dc] = a;
            workgroupBarrier();
        }
    }
    if i0 + ro < Lq {
        for (var dc = 0u; dc < NCH; dc++) {
            for (var u = 0u; u < 4u; u++) {
                let d = dc * 32u + 4u * qo + u;
                if d < D { out[(bh * Lq + i0 + ro) * D + d] = SO(acc[dc][u] * scale); }
            }
        }
    }
}

// OP 2: dk and dv of 32 keys of one (batch, KV head); scores: lane (r, c): keys r, r + 16 of the
// tile, queries c, c + 16; accumulation: key ro, quad qo
fn dkv(wg: u32, t: u32, r: u32, c: u32, ro: u32, qo: u32) {
    let H = P.shape[0].y;
    let Lq = P.shape[0].z;
    let Lk = P.shape[0].w;
    let D = P.shape[1].x;
    let G = P.shape[1].y;
    let ntile = P.shape[1].z;
    let BH = P.shape[0].x * H;
    let Hkv = H / G;
    let scale = bitcast<f32>(P.sv.x);
    let kvb = wg / ntile;
    let j0 = (wg - kvb * ntile) * 32u;
    let b = kvb / Hkv;
    let kvh = kvb - b * Hkv;
    let kb = (kvb * Lk + j0) * D;
    let vb = ((BH / G + kvb) * Lk + j0) * D;
    let nk = min(32u, Lk - j0);
    var qt0 = 0u;
    if CAUSAL {   // the first row that sees key j0: i >= j0 - (Lk - Lq)
        qt0 = u32(max(i32(j0) - i32(Lk) + i32(Lq), 0)) / 32u;
    }
    let nqt = (Lq + 31u) / 32u;
    if NCH == 1u {
        st2(t, ld_b(kb, nk, 0u, t));
        st3(t, ld_b(vb, nk, 0u, t));
    }
    var ak: array<vec4<f32>, 8>;
    var av: array<vec4<f32>, 8>;
    for (var u = 0u; u < 8u; u++) {
        ak[u] = vec4<f32>(0.0);
        av[u] = vec4<f32>(0.0);
    }
    for (var hh = 0u; hh < G; hh++) {
        let bh = b * H + kvh * G + hh;
        for (var qt = qt0; qt < nqt; qt++) {
            let i0 = qt * 32u;
            let nq = min(32u, Lq - i0);
            let qb = (bh * Lq + i0) * D;
            let ob = ((BH + bh) * Lq + i0) * D;
            // other rows (queries) i0 + c, i0 + c + 16: their (lse, delta)
            var lse0 = 0.0;
            var dl0 = 0.0;
            var lse1 = 0.0;
            var dl1 = 0.0;
            if i0 + c < Lq {
                lse0 = f32(sc[2u * (bh * Lq + i0 + c)]);
                dl0 = f32(sc[2u * (bh * Lq + i0 + c) + 1u]);
            }
            if i0 + c + 16u < Lq {
                lse1 = f32(sc[2u * (bh * Lq + i0 + c + 16u)]);
                dl1 = f32(sc[2u * (bh * Lq + i0 + c + 16u) + 1u]);
            }
            var s = vec4<f32>(0.0);
            var dp = vec4<f32>(0.0);
            for (var dc = 0u; dc < NCH; dc++) {
                st0(t, ld_a(qb, nq, dc, t));
                st1(t, ld_a(ob, nq, dc, t));
                if NCH > 1u {
                    st2(t, ld_b(kb, nk, dc, t));
                    st3(t, ld_b(vb, nk, dc, t));
                }
                workgroupBarrier();
                s = dots20(s, r, c, quads(dc));
                dp = dots31(dp, r, c, quads(dc));
                workgroupBarrier();
            }
            // s.x: key r, query c; s.y: key r, query c + 16; s.z: key r + 16, query c; s.w: both + 16
            var p = vec4<f32>(0.0);
            if visible(i0 + c, j0 + r) { p.x = exp(s.x * scale - lse0); }
            if visible(i0 + c + 16u, j0 + r) { p.y = exp(s.y * scale - lse1); }
            if visible(i0 + c, j0 + r + 16u) { p.z = exp(s.z * scale - lse0); }
            if visible(i0 + c + 16u, j0 + r + 16u) { p.w = exp(s.w * scale - lse1); }
            sp[r * SS + c] = p.x;
            sp[r * SS + c + 16u] = p.y;
            sp[(r + 16u) * SS + c] = p.z;
            sp[(r + 16u) * SS + c + 16u] = p.w;
            sd[r * SS + c] = p.x * (dp.x - dl0);
            sd[r * SS + c + 16u] = p.y * (dp.y - dl1);
            sd[(r + 16u) * SS + c] = p.z * (dp.z - dl0);
            sd[(r + 16u) * SS + c + 16u] = p.w * (dp.w - dl1);
            workgroupBarrier();
            for (var dc = 0u; dc < NCH; dc++) {
                if NCH > 1u {
                    st0(t, ld_a(qb, nq, dc, t));
                    st1(t, ld_a(ob, nq, dc, t));
                    workgroupBarrier();
                }
                var a = ak[dc];
                var v = av[dc];
                for (var ii = 0u; ii < 32u; ii++) {
                    a = fma(vec4<f32>(sd[ro * SS + ii]), t0[ii * RS + qo], a);
                    v = fma(vec4<f32>(sp[ro * SS + ii]), t1[ii * RS + qo], v);
                }
                ak[dc] = a;
                av[dc] = v;
                workgroupBarrier();
            }
        }
    }
    if j0 + ro < Lk {
        for (var dc = 0u; dc < NCH; dc++) {
            for (var u = 0u; u < 4u; u++) {
                let d = dc * 32u + 4u * qo + u;
                if d < D {
                    out[(kvb * Lk + j0 + ro) * D + d] = SO(ak[dc][u] * scale);
                    out[((BH / G + kvb) * Lk + j0 + ro) * D + d] = SO(av[dc][u]);
                }
            }
        }
    }
}
