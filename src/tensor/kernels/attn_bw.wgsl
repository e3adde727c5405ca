// attn_bw.wgsl - the backward pass of scaled dot-product attention, flash style
// (src/tensor/attention_backward.c): memory O(sequence), the probabilities recomputed tile by tile
// as P = exp(scale q k^T - lse) from each query row's logsumexp, never stored.  With
// delta_i = sum_d dO[i, d] O[i, d] and dS = P (dP - delta), dP = dO v^T:
//   dq = scale dS k,   dk = scale dS^T q,   dv = P^T dO.
// Three ops, each a 256-lane workgroup owning 32 rows and streaming the other side in tiles of
// 16 rows:
//   OP 0 stats: per 32 query rows, delta and the online (max, sum) over every key tile -> out
//        [B H Lq, 2] = (lse, delta) (a row that sees no key gets lse 3e38: P = 0);
//   OP 1 dq: per 32 query rows, over the key tiles (causal: only those with a visible key);
//   OP 2 dk, dv: per 32 keys of one KV head, over the query heads sharing it (grouped-query:
//        their contributions summed) and their query tiles (causal: from the first row that sees
//        the tile); out = [2, B Hkv, Lk, D]: dk, then dv.
// Own rows (o0, o1: q and dO, or k and v) and the other side's tile (x0, x1) sit in shared memory
// in chunks of 64 head dims, 16 vec4s per row (row stride 17 vec4s: the lanes of a dot product
// read distinct banks; 16-byte reads); with one chunk (D <= 64) the own rows are loaded once.
// Scores: lane (r, c) = (t / 16, t % 16) computes own rows r and r + 16 against other row c: two
// dot products per three 16-byte reads (one per two reads with 16 own rows), each other-side
// tile load and barrier serving twice the work.  Accumulation: lane t owns row t / 8 and quads
// t % 8 and t % 8 + 8 of each chunk.  Workgroup memory 30,464 bytes (fits lavapipe's 32 KiB).
// Inputs: a = [2, B H, Lq, D] (q, then dO), b = [2, B Hkv, Lk, D] (k, then v), c = the output
// O [B H, Lq, D] (OP 0) or the stats (OP 1, 2); all contiguous.  MC bit 0: causal (query i sees
// keys j <= i + Lk - Lq, as the forward).  Params: shape[0] = (B, H, Lq, Lk), shape[1] = (D,
// heads per KV head G, own tiles per (batch, head), chunks of 64 head dims), sv.x = scale.

@group(0) @binding(0) var<storage, read_write> out: array<SO>;
@group(0) @binding(1) var<storage, read> qd: array<SA>;
@group(0) @binding(2) var<storage, read> kv: array<SB>;
@group(0) @binding(3) var<storage, read> sc: array<SC>;

const CAUSAL: bool = (MC & 1u) != 0u;
const RS: u32 = 17u;

var<workgroup> o0: array<vec4<f32>, 544>;   // own rows (32 x 16 quads, stride 17): q, or k (OP 2)
var<workgroup> o1: array<vec4<f32>, 544>;   // dO, or v (OP 2)
var<workgroup> x0: array<vec4<f32>, 272>;   // the other side's tile (16 rows): k, or q (OP 2)
var<workgroup> x1: array<vec4<f32>, 272>;   // v, or dO (OP 2)
var<workgroup> sp: array<f32, 544>;    // 32 x 17, [own row][other row]: scores, P
var<workgroup> sd: array<f32, 544>;    // dS

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

// rows of the second half (16 .. 31) of n own rows
fn upper(n: u32) -> u32 {
    return select(0u, n - 16u, n > 16u);
}

// own rows 0 .. 31 of chunk dc: o0 / o1 from q, dO (ldo_a) or from k, v (ldo_b)
fn ldo_a(b0: u32, b1: u32, n: u32, dc: u32, t: u32) {
    let D = P.shape[1].x;
    let i = (t / 16u) * RS + t % 16u;
    o0[i] = ld_a(b0, n, dc, t);
    o0[i + 16u * RS] = ld_a(b0 + 16u * D, upper(n), dc, t);
    o1[i] = ld_a(b1, n, dc, t);
    o1[i + 16u * RS] = ld_a(b1 + 16u * D, upper(n), dc, t);
}

fn ldo_b(b0: u32, b1: u32, n: u32, dc: u32, t: u32) {
    let D = P.shape[1].x;
    let i = (t / 16u) * RS + t % 16u;
    o0[i] = ld_b(b0, n, dc, t);
    o0[i + 16u * RS] = ld_b(b0 + 16u * D, upper(n), dc, t);
    o1[i] = ld_b(b1, n, dc, t);
    o1[i + 16u * RS] = ld_b(b1 + 16u * D, upper(n), dc, t);
}

fn stx0(t: u32, v: vec4<f32>) { x0[(t / 16u) * RS + t % 16u] = v; }
fn stx1(t: u32, v: vec4<f32>) { x1[(t / 16u) * RS + t % 16u] = v; }

// quads of chunk dc that hold head dims
fn quads(dc: u32) -> u32 {
    let D = P.shape[1].x;
    return (min(64u, D - dc * 64u) + 3u) / 4u;
}

// s + the dot products of own rows r (x) and r + 16 (y) with other row c over chunk dc: o0 . x0
fn dots0(s: vec2<f32>, r: u32, c: u32, ec: u32) -> vec2<f32> {
    var a = s;
    for (var e = 0u; e < ec; e++) {
        let b = x0[c * RS + e];
        a = a + vec2<f32>(dot(o0[r * RS + e], b), dot(o0[(r + 16u) * RS + e], b));
    }
    return a;
}

// o1 . x1
fn dots1(s: vec2<f32>, r: u32, c: u32, ec: u32) -> vec2<f32> {
    var a = s;
    for (var e = 0u; e < ec; e++) {
        let b = x1[c * RS + e];
        a = a + vec2<f32>(dot(o1[r * RS + e], b), dot(o1[(r + 16u) * RS + e], b));
    }
    return a;
}

// may query row i see key j?
fn visible(i: u32, j: u32) -> bool {
    let Lq = P.shape[0].z;
    let Lk = P.shape[0].w;
    if i >= Lq || j >= Lk { return false; }
    if CAUSAL { return i32(j) <= i32(i) + i32(Lk) - i32(Lq); }
    return true;
}

// key tiles (16) the 32 query rows from i0 need: all, or (causal) up to the last row's last
// visible key
fn key_tiles(i0: u32) -> u32 {
    let Lq = P.shape[0].z;
    let Lk = P.shape[0].w;
    let nk = (Lk + 15u) / 16u;
    if !CAUSAL { return nk; }
    let last = i32(min(i0 + 31u, Lq - 1u)) + i32(Lk) - i32(Lq);
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
    let ro = t / 8u;              // accumulation: own row
    let qa = t % 8u;              // and quads qa, qa + 8
    if OP == 2u {
        dkv(wg, t, r, c, ro, qa);
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
    if nch == 1u { ldo_a(qb, ob, nq, 0u, t); }
    if OP == 0u {
        // delta_i = dO_i . O_i: lane t sums dims t % 8, + 8, ... of row t / 8
        var dl = 0.0;
        if i0 + ro < Lq {
            for (var d = qa; d < D; d += 8u) {
                dl = dl + f32(qd[ob + ro * D + d]) * f32(sc[(bh * Lq + i0 + ro) * D + d]);
            }
        }
        sp[ro * RS + qa] = dl;
        workgroupBarrier();
        var delta = 0.0;
        if t < 32u {
            for (var jj = 0u; jj < 8u; jj++) { delta = delta + sp[t * RS + jj]; }
        }
        workgroupBarrier();
        var m = neg_inf();
        var l = 0.0;
        for (var kt = 0u; kt < nkt; kt++) {
            let j0 = kt * 16u;
            var s = vec2<f32>(0.0);
            for (var dc = 0u; dc < nch; dc++) {
                if nch > 1u { ldo_a(qb, ob, nq, dc, t); }
                stx0(t, ld_b(kb + j0 * D, min(16u, Lk - j0), dc, t));
                workgroupBarrier();
                s = dots0(s, r, c, quads(dc));
                workgroupBarrier();
            }
            sp[r * RS + c] = select(neg_inf(), s.x * scale, visible(i0 + r, j0 + c));
            sp[(r + 16u) * RS + c] = select(neg_inf(), s.y * scale, visible(i0 + r + 16u, j0 + c));
            workgroupBarrier();
            if t < 32u {
                for (var jj = 0u; jj < 16u; jj++) {
                    let v = sp[t * RS + jj];
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
    // OP 1: dq.  The lane's own rows i0 + r, i0 + r + 16: their (lse, delta).
    var st0 = vec2<f32>(0.0);
    var st1 = vec2<f32>(0.0);
    if i0 + r < Lq { st0 = vec2<f32>(f32(sc[2u * (bh * Lq + i0 + r)]), f32(sc[2u * (bh * Lq + i0 + r) + 1u])); }
    if i0 + r + 16u < Lq {
        st1 = vec2<f32>(f32(sc[2u * (bh * Lq + i0 + r + 16u)]), f32(sc[2u * (bh * Lq + i0 + r + 16u) + 1u]));
    }
    var acc: array<vec4<f32>, 8>;
    for (var u = 0u; u < 8u; u++) { acc[u] = vec4<f32>(0.0); }
    for (var kt = 0u; kt < nkt; kt++) {
        let j0 = kt * 16u;
        let nk = min(16u, Lk - j0);
        var s = vec2<f32>(0.0);
        var dp = vec2<f32>(0.0);
        for (var dc = 0u; dc < nch; dc++) {
            if nch > 1u { ldo_a(qb, ob, nq, dc, t); }
            stx0(t, ld_b(kb + j0 * D, nk, dc, t));
            stx1(t, ld_b(vb + j0 * D, nk, dc, t));
            workgroupBarrier();
            s = dots0(s, r, c, quads(dc));
            dp = dots1(dp, r, c, quads(dc));
            workgroupBarrier();
        }
        var p = vec2<f32>(0.0);
        if visible(i0 + r, j0 + c) { p.x = exp(s.x * scale - st0.x); }
        if visible(i0 + r + 16u, j0 + c) { p.y = exp(s.y * scale - st1.x); }
        sd[r * RS + c] = p.x * (dp.x - st0.y);
        sd[(r + 16u) * RS + c] = p.y * (dp.y - st1.y);
        workgroupBarrier();
        for (var dc = 0u; dc < nch; dc++) {
            if nch > 1u {
                stx0(t, ld_b(kb + j0 * D, nk, dc, t));
                workgroupBarrier();
            }
            var a0 = acc[2u * dc];
            var a1 = acc[2u * dc + 1u];
            for (var jj = 0u; jj < 16u; jj++) {
                let w = vec4<f32>(sd[ro * RS + jj]);
                a0 = fma(w, x0[jj * RS + qa], a0);
                a1 = fma(w, x0[jj * RS + qa + 8u], a1);
            }
            acc[2u * dc] = a0;
            acc[2u * dc + 1u] = a1;
            workgroupBarrier();
        }
    }
    if i0 + ro < Lq {
        for (var dc = 0u; dc < nch; dc++) {
            for (var u = 0u; u < 4u; u++) {
                let d0 = dc * 64u + 4u * qa + u;
                let d1 = d0 + 32u;
                if d0 < D { out[(bh * Lq + i0 + ro) * D + d0] = SO(acc[2u * dc][u] * scale); }
                if d1 < D { out[(bh * Lq + i0 + ro) * D + d1] = SO(acc[2u * dc + 1u][u] * scale); }
            }
        }
    }
}

// OP 2: dk and dv of 32 keys of one (batch, KV head); scores: lane (r, c): keys r, r + 16 of the
// tile against query c of the query tile; accumulation: key ro, quads qa, qa + 8
fn dkv(wg: u32, t: u32, r: u32, c: u32, ro: u32, qa: u32) {
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
    let j0 = (wg - kvb * ntile) * 32u;
    let b = kvb / Hkv;
    let kvh = kvb - b * Hkv;
    let kb = (kvb * Lk + j0) * D;
    let vb = ((BH / G + kvb) * Lk + j0) * D;
    let nk = min(32u, Lk - j0);
    var qt0 = 0u;
    if CAUSAL {   // the first row that sees key j0: i >= j0 - (Lk - Lq)
        qt0 = u32(max(i32(j0) - i32(Lk) + i32(Lq), 0)) / 16u;
    }
    let nqt = (Lq + 15u) / 16u;
    if nch == 1u { ldo_b(kb, vb, nk, 0u, t); }
    var ak: array<vec4<f32>, 8>;
    var av: array<vec4<f32>, 8>;
    for (var u = 0u; u < 8u; u++) {
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
            var s = vec2<f32>(0.0);
            var dp = vec2<f32>(0.0);
            for (var dc = 0u; dc < nch; dc++) {
                stx0(t, ld_a(qb, nq, dc, t));
                stx1(t, ld_a(ob, nq, dc, t));
                if nch > 1u { ldo_b(kb, vb, nk, dc, t); }
                workgroupBarrier();
                s = dots0(s, r, c, quads(dc));
                dp = dots1(dp, r, c, quads(dc));
                workgroupBarrier();
            }
            var p = vec2<f32>(0.0);
            if visible(i, j0 + r) { p.x = exp(s.x * scale - lse); }
            if visible(i, j0 + r + 16u) { p.y = exp(s.y * scale - lse); }
            sp[r * RS + c] = p.x;
            sp[(r + 16u) * RS + c] = p.y;
            sd[r * RS + c] = p.x * (dp.x - delta);
            sd[(r + 16u) * RS + c] = p.y * (dp.y - delta);
            workgroupBarrier();
            for (var dc = 0u; dc < nch; dc++) {
                if nch > 1u {
                    stx0(t, ld_a(qb, nq, dc, t));
                    stx1(t, ld_a(ob, nq, dc, t));
                    workgroupBarrier();
                }
                var a0 = ak[2u * dc];
                var a1 = ak[2u * dc + 1u];
                var v0 = av[2u * dc];
                var v1 = av[2u * dc + 1u];
                for (var ii = 0u; ii < 16u; ii++) {
                    let w = vec4<f32>(sd[ro * RS + ii]);
                    let pw = vec4<f32>(sp[ro * RS + ii]);
                    a0 = fma(w, x0[ii * RS + qa], a0);
                    a1 = fma(w, x0[ii * RS + qa + 8u], a1);
                    v0 = fma(pw, x1[ii * RS + qa], v0);
                    v1 = fma(pw, x1[ii * RS + qa + 8u], v1);
                }
                ak[2u * dc] = a0;
                ak[2u * dc + 1u] = a1;
                av[2u * dc] = v0;
                av[2u * dc + 1u] = v1;
                workgroupBarrier();
            }
        }
    }
    if j0 + ro < Lk {
        for (var dc = 0u; dc < nch; dc++) {
            for (var u = 0u; u < 4u; u++) {
                let d0 = dc * 64u + 4u * qa + u;
                let d1 = d0 + 32u;
                let kr = (kvb * Lk + j0 + ro) * D;
                let vr = ((BH / G + kvb) * Lk + j0 + ro) * D;
                if d0 < D {
                    out[kr + d0] = SO(ak[2u * dc][u] * scale);
                    out[vr + d0] = SO(av[2u * dc][u]);
                }
                if d1 < D {
                    out[kr + d1] = SO(ak[2u * dc + 1u][u] * scale);
                    out[vr + d1] = SO(av[2u * dc + 1u][u]);
                }
            }
        }
    }
}
