// qblock.wgsl - the weight formats of src/tensor/quant.c, appended after qmatvec, qmatmul and
// qrows.wgsl: q_unit(rb, u) decodes unit u (weights 32 u .. 32 u + 31) of the row whose bytes
// start at byte rb of `wq`, the kernel's array<u32> holding the weight as uploaded (GGML blocks
// back to back, rows one after another, little-endian).  OP is the format (wt_qformat's value).
// A unit is one block of the 32-weight formats, or one eighth of a 256-weight super-block (one
// 32-weight sub-block of Q4_K/Q5_K; two 16-weight groups of Q2_K/Q3_K/Q6_K).  Blocks of 18, 22,
// 34, 110 or 210 bytes start on even bytes only, so q_word joins the halves of two u32 words
// there; formats whose every field is 4-byte aligned (Q_A4) read one word.  Each weight is
// computed as the gguf package's dequantize computes it in f32 (scale products first, e.g.
// Q4_K (d sc) q - dmin m), so the decode is that of the file's reference up to the contraction
// of a product and an add the driver may make.

const QF_F32: u32 = 1u;
const QF_F16: u32 = 2u;
const QF_BF16: u32 = 3u;
const QF_Q4_0: u32 = 4u;
const QF_Q4_1: u32 = 5u;
const QF_Q5_0: u32 = 6u;
const QF_Q5_1: u32 = 7u;
const QF_Q8_0: u32 = 8u;
const QF_Q2_K: u32 = 9u;
const QF_Q3_K: u32 = 10u;
const QF_Q4_K: u32 = 11u;
const QF_Q5_K: u32 = 12u;
const QF_Q6_K: u32 = 13u;
const Q_A4: bool = OP == QF_F32 || OP == QF_F16 || OP == QF_BF16 || OP == QF_Q4_1 || OP == QF_Q5_1 ||
                   OP == QF_Q2_K || OP == QF_Q4_K || OP == QF_Q5_K;

// the 4 bytes at byte b (b even); branch-free, the lanes of a warp meet both alignments (the
// second load is of the same word where b is 4-byte aligned)
fn q_word(b: u32) -> u32 {
    let w = b >> 2u;
    if Q_A4 { return wq[w]; }
    let x = wq[w];
    let y = wq[w + ((b >> 1u) & 1u)];
    return select(x, (x >> 16u) | (y << 16u), (b & 2u) != 0u);
}

fn q_byte(b: u32) -> u32 {
    return (wq[b >> 2u] >> ((b & 3u) * 8u)) & 255u;
}

// the f16 at byte b (b even)
fn q_f16(b: u32) -> f32 {
    return unpack2x16float(wq[b >> 2u] >> ((b & 2u) * 8u)).x;
}

// the two f16 at bytes b, b + 2 (b even; one load where b is 4-byte aligned: the Q_A4 formats)
fn q_f16x2(b: u32) -> vec2<f32> {
    if Q_A4 { return unpack2x16float(wq[b >> 2u]); }
    return vec2<f32>(q_f16(b), q_f16(b + 2u));
}

fn q_bytes(q: u32) -> vec4<f32> {
    return vec4<f32>(vec4<u32>(q, q >> 8u, q >> 16u, q >> 24u) & vec4<u32>(255u));
}

fn q_nib(q: u32) -> vec4<f32> {
    return vec4<f32>(vec4<u32>(q, q >> 8u, q >> 16u, q >> 24u) & vec4<u32>(15u));
}

fn q_sbytes(q: u32) -> vec4<f32> {
    let s = bitcast<i32>(q);
    return vec4<f32>(vec4<i32>(s << 24u, s << 16u, s << 8u, s) >> vec4<u32>(24u));
}

// bits 0..3 of h as 0.0 / 1.0
fn q_bits(h: u32) -> vec4<f32> {
    return vec4<f32>(vec4<u32>(h, h >> 1u, h >> 2u, h >> 3u) & vec4<u32>(1u));
}

// Q4_0 (18 bytes): d f16, qs[16]; weight j < 16 = d (lo(qs[j]) - 8), 16 + j: the high nibble.
// Q4_1 (20): d, m f16, qs[16]: d q + m.  Q5_0 (22): d, qh u32, qs[16]: the fifth bit of weight
// i is bit i of qh, d (q - 16).  Q5_1 (24): d, m, qh, qs: d q + m.
fn q_legacy(b: u32) -> array<vec4<f32>, 8> {
    let dm = q_f16x2(b);
    let d = dm.x;
    var m = 0.0;
    var qs = b + 2u;
    var qh = 0u;
    if OP == QF_Q4_1 || OP == QF_Q5_1 {
        m = dm.y;
        qs = b + 4u;
    }
    if OP == QF_Q5_0 || OP == QF_Q5_1 {
        qh = q_word(qs);
        qs = qs + 4u;
    }
    var v: array<vec4<f32>, 8>;
    for (var j = 0u; j < 4u; j = j + 1u) {
        let q = q_word(qs + 4u * j);
        var lo = q_nib(q);
        var hi = q_nib(q >> 4u);
        if OP == QF_Q5_0 || OP == QF_Q5_1 {
            lo = lo + 16.0 * q_bits(qh >> (4u * j));
            hi = hi + 16.0 * q_bits(qh >> (16u + 4u * j));
        }
        if OP == QF_Q4_1 || OP == QF_Q5_1 {
            v[j] = d * lo + m;
            v[j + 4u] = d * hi + m;
        } else {
            let z = select(8.0, 16.0, OP == QF_Q5_0);
            v[j] = d * (lo - z);
            v[j + 4u] = d * (hi - z);
        }
    }
    return v;
}

// Q8_0 (34 bytes): d f16, qs[32] i8: q d.
fn q8_0(b: u32) -> array<vec4<f32>, 8> {
    let d = q_f16(b);
    var v: array<vec4<f32>, 8>;
    for (var j = 0u; j < 8u; j = j + 1u) {
        v[j] = q_sbytes(q_word(b + 2u + 4u * j)) * d;
    }
    return v;
}

// Q2_K (84 bytes): scales[16] (lo nibble scale, hi nibble min of each 16 weights), qs[64] (2 bits),
// d, dmin f16.  Weight e: qs[32 (e / 128) + e % 32] >> 2 ((e % 128) / 32), scale e / 16:
// (d sc) q - dmin mn.
fn q2_k(sb: u32, s: u32) -> array<vec4<f32>, 8> {
    let dd = q_f16x2(sb + 80u);
    let d = dd.x;
    let dm = dd.y;
    let sc = (wq[(sb + 2u * s) >> 2u] >> (((sb + 2u * s) & 2u) * 8u));
    let dl0 = d * f32(sc & 15u);
    let ml0 = dm * f32((sc >> 4u) & 15u);
    let dl1 = d * f32((sc >> 8u) & 15u);
    let ml1 = dm * f32((sc >> 12u) & 15u);
    let qb = sb + 16u + 32u * (s >> 2u);
    let sh = 2u * (s & 3u);
    var v: array<vec4<f32>, 8>;
    for (var j = 0u; j < 4u; j = j + 1u) {
        v[j] = dl0 * q_bytes((q_word(qb + 4u * j) >> sh) & 0x03030303u) - ml0;
        v[j + 4u] = dl1 * q_bytes((q_word(qb + 16u + 4u * j) >> sh) & 0x03030303u) - ml1;
    }
    return v;
}

// Q3_K's 6-bit scale i (of 16): the low 4 bits in scales[i % 8] (nibble i / 8), the high 2 in
// scales[8 + i % 4] (bits 2 (i / 4)); minus 32.
fn q3_scale(sb: u32, i: u32) -> f32 {
    let lo = (q_byte(sb + 96u + (i & 7u)) >> (4u * (i >> 3u))) & 15u;
    let hi = (q_byte(sb + 104u + (i & 3u)) >> (2u * (i >> 2u))) & 3u;
    return f32(i32(lo | (hi << 4u)) - 32);
}

// Q3_K (110 bytes): hmask[32], qs[64], scales[12], d f16.  Weight e: 2 bits as Q2_K's, minus 4
// where bit e / 32 of hmask[e % 32] is clear; (d sc) q.
fn q3_k(sb: u32, s: u32) -> array<vec4<f32>, 8> {
    let d = q_f16(sb + 108u);
    let dl0 = d * q3_scale(sb, 2u * s);
    let dl1 = d * q3_scale(sb, 2u * s + 1u);
    let qb = sb + 32u + 32u * (s >> 2u);
    let sh = 2u * (s & 3u);
    var v: array<vec4<f32>, 8>;
    for (var j = 0u; j < 8u; j = j + 1u) {
        let ql = q_bytes((q_word(qb + 4u * j) >> sh) & 0x03030303u);
        let h = q_bytes((q_word(sb + 4u * j) >> s) & 0x01010101u);
        v[j] = select(dl1, dl0, j < 4u) * (ql + 4.0 * h - 4.0);
    }
    return v;
}

// Q4_K / Q5_K's 6-bit scale and min of sub-block j (of 8) from scales[12] at byte b
fn q_scale_min(b: u32, j: u32) -> vec2<f32> {
    if j < 4u {
        return vec2<f32>(f32(q_byte(b + j) & 63u), f32(q_byte(b + j + 4u) & 63u));
    }
    let x = q_byte(b + j + 4u);
    let sc = (x & 15u) | ((q_byte(b + j - 4u) >> 6u) << 4u);
    let mn = (x >> 4u) | ((q_byte(b + j) >> 6u) << 4u);
    return vec2<f32>(f32(sc), f32(mn));
}

// Q4_K (144 bytes): d, dmin f16, scales[12], qs[128]; sub-block s: nibble s % 2 of
// qs[32 (s / 2) ..], (d sc) q - dmin mn.  Q5_K (176): d, dmin, scales, qh[32], qs[128]; the fifth
// bit of weight e is bit e / 32 of qh[e % 32].
fn q45_k(sb: u32, s: u32) -> array<vec4<f32>, 8> {
    let dd = q_f16x2(sb);
    let d = dd.x;
    let dm = dd.y;
    let sm = q_scale_min(sb + 4u, s);
    let dl = d * sm.x;
    let ml = dm * sm.y;
    let five = OP == QF_Q5_K;
    let qb = sb + select(16u, 48u, five) + 32u * (s >> 1u);
    let sh = 4u * (s & 1u);
    var v: array<vec4<f32>, 8>;
    for (var j = 0u; j < 8u; j = j + 1u) {
        var q = q_nib(q_word(qb + 4u * j) >> sh);
        if five {
            q = q + 16.0 * q_bytes((q_word(sb + 16u + 4u * j) >> s) & 0x01010101u);
        }
        v[j] = dl * q - ml;
    }
    return v;
}

// Q6_K (210 bytes): ql[128], qh[64], scales[16] i8, d f16.  Weight e (n = e / 128, r = e % 128):
// low nibble r / 64 of ql[64 n + r % 64], high 2 bits (2 ((r / 32))) of qh[32 n + r % 32], minus
// 32; (d sc[e / 16]) q.
fn q6_k(sb: u32, s: u32) -> array<vec4<f32>, 8> {
    let d = q_f16(sb + 208u);
    let scw = bitcast<i32>(wq[(sb + 192u + 2u * s) >> 2u] << (16u - ((sb + 2u * s) & 2u) * 8u));
    let dl0 = d * f32((scw << 8u) >> 24u);
    let dl1 = d * f32(scw >> 24u);
    let n = s >> 2u;
    let k = s & 3u;
    let lb = sb + 64u * n + 32u * (k & 1u);
    let hb = sb + 128u + 32u * n;
    var v: array<vec4<f32>, 8>;
    for (var j = 0u; j < 8u; j = j + 1u) {
        let lo = (q_word(lb + 4u * j) >> (4u * (k >> 1u))) & 0x0f0f0f0fu;
        let hi = (q_word(hb + 4u * j) >> (2u * k)) & 0x03030303u;
        v[j] = select(dl1, dl0, j < 4u) * (q_bytes(lo | (hi << 4u)) - 32.0);
    }
    return v;
}

// f32, f16, bf16: 128, 64, 64 bytes per unit (row starts are 4-byte aligned: K % 32 == 0)
fn q_float(b: u32) -> array<vec4<f32>, 8> {
    let w = b >> 2u;
    var v: array<vec4<f32>, 8>;
    for (var j = 0u; j < 8u; j = j + 1u) {
        if OP == QF_F32 {
            v[j] = bitcast<vec4<f32>>(vec4<u32>(wq[w + 4u * j], wq[w + 4u * j + 1u], wq[w + 4u * j + 2u],
                                                wq[w + 4u * j + 3u]));
        } else if OP == QF_F16 {
            v[j] = vec4<f32>(unpack2x16float(wq[w + 2u * j]), unpack2x16float(wq[w + 2u * j + 1u]));
        } else {
            let x = wq[w + 2u * j];
            let y = wq[w + 2u * j + 1u];
            v[j] = bitcast<vec4<f32>>(vec4<u32>(x << 16u, x & 0xffff0000u, y << 16u, y & 0xffff0000u));
        }
    }
    return v;
}

fn q_unit(rb: u32, u: u32) -> array<vec4<f32>, 8> {
    switch OP {
        case 1u: { return q_float(rb + u * 128u); }
        case 2u, 3u: { return q_float(rb + u * 64u); }
        case 4u: { return q_legacy(rb + u * 18u); }
        case 5u: { return q_legacy(rb + u * 20u); }
        case 6u: { return q_legacy(rb + u * 22u); }
        case 7u: { return q_legacy(rb + u * 24u); }
        case 8u: { return q8_0(rb + u * 34u); }
        case 9u: { return q2_k(rb + (u >> 3u) * 84u, u & 7u); }
        case 10u: { return q3_k(rb + (u >> 3u) * 110u, u & 7u); }
        case 11u: { return q45_k(rb + (u >> 3u) * 144u, u & 7u); }
        case 12u: { return q45_k(rb + (u >> 3u) * 176u, u & 7u); }
        case 13u: { return q6_k(rb + (u >> 3u) * 210u, u & 7u); }
        default: {
            var z: array<vec4<f32>, 8>;
            return z;
        }
    }
}
