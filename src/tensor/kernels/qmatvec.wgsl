// qmatvec.wgsl - the decode path of src/tensor/quant.c: out[m, r] = sum_k W[r, k] x[m, k] (+ bias[r])
// for MA (1..4) rows of x and a weight W [N, K] in a block format (qblock.wgsl, OP), read in place:
// each weight byte is read once from memory.  A row is cut into tasks (quant.c's q_task_weights):
// Q4_K four consecutive quant words (two sub-blocks' nibbles under one pair of scales), Q6_K two
// qh words with their four ql words (4 scales), the other K-quants and f32/f16/bf16 one 32-weight
// unit (qblock.wgsl's q_unit); Q4_1 one quant word and Q8_0 two (8 weights: their rows are short,
// K = 576 in SmolLM2, and more tasks a row keep more lanes busy).  L = 2^MB lanes (8..256) take a
// row group of R rows (MC bits 1-2: log2 R); lane l does tasks l, l + L, ... of each of the R
// rows, so neighbouring lanes read neighbouring bytes of a row (a warp's load covers a run of
// consecutive words), and the TQ x quads it loads for a task serve the R rows (x's loads through
// L1 are otherwise 4-8 times the weight's bytes).  The work per weight bounds the kernel on the
// H200 (8-weight tasks ran every K-quant at the same ~2e12 weights/s), so the integers become
// floats by the exponent trick (q_b4: the bits of 2^23 + q, minus 2^23: exact, and no
// integer-to-float conversion, a quarter-rate instruction on NVIDIA), and a task's scales are
// decoded once and applied per group, e.g. Q4_K's d (sc0 sum q x + sc1 ...) - dmin (mn0 sum x +
// ...), the gguf reference's (d sc) q - dmin mn regrouped: the sums differ from it by f32
// rounding only.  The MA partial sums ride in one vec4 per row, and the L lanes of a row group
// add them: with subgroups (MC bit 3) by shuffles over aligned runs of W lanes (W = 32 where
// quant.c found subgroups of 32 or more lanes, MC bit 4; else 8), then the L / W partials in
// workgroup memory; without, all L partials in workgroup memory.  P.sv = (N, tasks per row, bytes
// per row, x row stride in quads), P.off.x: the output's first element (rows of N), P.off.z: the
// bias's; MC bit 0: add the bias.  Rows past N (the last group's) read row N - 1, write nothing.
// Loop bound: tasks per row / L <= K / 8 / 8 = 2^14 iterations per lane (K <= 2^20, quant.c
// refuses more; L >= 8), under lavapipe's 65,535.
// Compiled without index clamps (catalogue.h; robustBufferAccess2 still guards the bindings),
// every index is in range: a row r <= N - 1 starts at byte r * (bytes per row) and a task's words
// lie in its block, which lies in the row (k < tasks per row); q_word / q_w2 read one word past
// their bytes only where those start 2 bytes into a word (that word still holds the field's last
// two bytes); the x quads of task k lie in quads 8 (k * TQ / 8) .. + 7 < K / 4 of the x row, whose
// MA rows the C side binds whole; bias r < N; out m * N + r < M * N; red 256 i + t + j with t + j
// inside the row group's L lanes.

@group(0) @binding(0) var<storage, read_write> out: array<SO>;
@group(0) @binding(1) var<storage, read> wq: array<u32>;
@group(0) @binding(2) var<storage, read> b: array<vec4<SB>>;
@group(0) @binding(3) var<storage, read> c: array<SC>;

const R: u32 = 1u << ((MC >> 1u) & 3u);     // weight rows per row group
const L: u32 = 1u << MB;                     // lanes per row group
const W: u32 = min(L, select(select(1u, 8u, (MC & 8u) != 0u), 32u, (MC & 24u) == 24u));   // shuffled

const TQ: u32 = select(8u, 2u, OP == QF_Q4_1 || OP == QF_Q8_0);   // x quads per task

var<workgroup> red: array<vec4<f32>, 256u * R>;

// the four bytes of v as floats, minus o: bits 2^23 + byte, minus 2^23 + o (exact)
fn q_b4(v: u32, o: f32) -> vec4<f32> {
    let m = (vec4<u32>(v, v >> 8u, v >> 16u, v >> 24u) & vec4<u32>(255u)) | vec4<u32>(0x4b000000u);
    return bitcast<vec4<f32>>(m) - vec4<f32>(8388608.0 + o);
}

// the four bytes of v as signed bytes, as floats
fn q_s4(v: u32) -> vec4<f32> {
    return q_b4(v ^ 0x80808080u, 128.0);
}

// the 8 bytes at byte b (b even), branch-free (qblock.wgsl's q_word, two words at a time)
fn q_w2(b: u32) -> vec2<u32> {
    let w = b >> 2u;
    let x = wq[w];
    let y = wq[w + 1u];
    let z = wq[w + 1u + ((b >> 1u) & 1u)];
    return select(vec2<u32>(x, y), vec2<u32>((x >> 16u) | (y << 16u), (y >> 16u) | (z << 16u)), (b & 2u) != 0u);
}

fn hsum(x: vec4<f32>) -> f32 {
    return (x.x + x.y) + (x.z + x.w);
}

// x quad j (< TQ) of task k of the x row from quad xo
fn x_quad(xo: u32, k: u32, j: u32) -> u32 {
    switch OP {
        case 11u: { return xo + 64u * (k >> 3u) + 16u * ((k >> 1u) & 3u) + 4u * (k & 1u) + (j & 3u) + 8u * (j >> 2u); }
        case 13u: { return xo + 64u * (k >> 3u) + 32u * ((k >> 2u) & 1u) + 2u * (k & 3u) + (j & 1u) + 8u * (j >> 1u); }
        case 5u: { return xo + 8u * (k >> 2u) + (k & 3u) + 4u * j; }          // Q4_1: qs word k % 4
        case 8u: { return xo + 8u * (k >> 2u) + 2u * (k & 3u) + j; }          // Q8_0: weights 8 (k % 4) ..
        default: { return xo + 8u * k + j; }
    }
}

// 4 quads of x from quad i of x (the low nibbles of 4 words) and 4 from quad 4 + i (the high)
fn dot_nib(q: vec4<u32>, x: array<vec4<f32>, 8>) -> vec2<f32> {
    var lo = 0.0;
    var hi = 0.0;
    for (var i = 0u; i < 4u; i = i + 1u) {
        lo = lo + dot(q_b4(q[i] & 0x0f0f0f0fu, 0.0), x[i]);
        hi = hi + dot(q_b4((q[i] >> 4u) & 0x0f0f0f0fu, 0.0), x[4u + i]);
    }
    return vec2<f32>(lo, hi);
}

// sum of x quads 0..3 and of 4..7
fn sum_x(x: array<vec4<f32>, 8>) -> vec2<f32> {
    return vec2<f32>(hsum(x[0] + x[1] + x[2] + x[3]), hsum(x[4] + x[5] + x[6] + x[7]));
}

// Q4_1 (20 bytes): task k % 4 = qs word p, weights 4p.. (low nibbles) and 16 + 4p.. (high)
fn t_q4_1(rb: u32, k: u32, x: array<vec4<f32>, 8>) -> f32 {
    let h = (rb >> 2u) + 5u * (k >> 2u);
    let dm = unpack2x16float(wq[h]);
    let q = wq[h + 1u + (k & 3u)];
    let s = dot(q_b4(q & 0x0f0f0f0fu, 0.0), x[0]) + dot(q_b4((q >> 4u) & 0x0f0f0f0fu, 0.0), x[1]);
    return dm.x * s + dm.y * (hsum(x[0]) + hsum(x[1]));
}

// Q8_0 (34 bytes): task k % 4 = p, weights 8p .. 8p + 7, d q
fn t_q8_0(rb: u32, k: u32, x: array<vec4<f32>, 8>) -> f32 {
    let bb = rb + 34u * (k >> 2u);
    let q = q_w2(bb + 2u + 8u * (k & 3u));
    return q_f16(bb) * (dot(q_s4(q.x), x[0]) + dot(q_s4(q.y), x[1]));
}

// Q4_K (144 bytes): task k % 8 = (c, h) of the super-block: qs words 8c + 4h .. + 3 hold weights
// 64c + 16h .. + 15 of sub-block 2c (low nibbles) and of 2c + 1 (high)
fn t_q4_k(rb: u32, k: u32, x: array<vec4<f32>, 8>) -> f32 {
    let h = (rb >> 2u) + 36u * (k >> 3u);
    let c = (k >> 1u) & 3u;
    let qw = h + 4u + 4u * (k & 7u);
    let dd = unpack2x16float(wq[h]);
    // the 6-bit scales and mins of sub-blocks 2c, 2c + 1 (qblock.wgsl's q_scale_min), two at a time
    let sh = 16u * (c & 1u);
    let a0 = (wq[h + 1u] >> sh) & 0xffffu;
    let a1 = (wq[h + 2u] >> sh) & 0xffffu;
    let a2 = (wq[h + 3u] >> sh) & 0xffffu;
    let hi = c >= 2u;
    let sc = select(a0 & 0x3f3fu, (a2 & 0x0f0fu) | ((a0 & 0xc0c0u) >> 2u), hi);
    let mn = select(a1 & 0x3f3fu, ((a2 >> 4u) & 0x0f0fu) | ((a1 & 0xc0c0u) >> 2u), hi);
    let s = q_b4(sc | (mn << 16u), 0.0);
    let d = dot_nib(vec4<u32>(wq[qw], wq[qw + 1u], wq[qw + 2u], wq[qw + 3u]), x);
    let sx = sum_x(x);
    return dd.x * (s.x * d.x + s.y * d.y) - dd.y * (s.z * sx.x + s.w * sx.y);
}

// Q6_K (210 bytes): task k % 8 = (n, p) (n = half of 128 weights, p < 4) covers weights
// 128n + 4i + 32j .. + 3 for i = 2p, 2p + 1 and j < 4: low nibbles of ql word 16n + i (j = 0)
// and 16n + 8 + i (j = 1), their high nibbles (j = 2, 3), the 2-bit highs of qh word 8n + i
// (bits 2j); scale 8n + 2j + p / 2.  x quad 2j + (i - 2p) of the task
fn t_q6_k(rb: u32, k: u32, x: array<vec4<f32>, 8>) -> f32 {
    let sb = rb + 210u * (k >> 3u);
    let n = (k >> 2u) & 1u;
    let p = k & 3u;
    let l0 = q_w2(sb + 64u * n + 8u * p);
    let l1 = q_w2(sb + 64u * n + 32u + 8u * p);
    let qh = q_w2(sb + 128u + 32u * n + 8u * p);
    let sw = q_w2(sb + 192u + 8u * n);
    let a = sw.x >> (8u * (p >> 1u));
    let e = sw.y >> (8u * (p >> 1u));
    let sc = q_s4((a & 0xffu) | ((a >> 8u) & 0xff00u) | ((e & 0xffu) << 16u) | ((e << 8u) & 0xff000000u));
    var s = vec4<f32>(0.0);
    for (var i = 0u; i < 2u; i = i + 1u) {
        s.x = s.x + dot(q_b4((l0[i] & 0x0f0f0f0fu) | ((qh[i] << 4u) & 0x30303030u), 32.0), x[i]);
        s.y = s.y + dot(q_b4((l1[i] & 0x0f0f0f0fu) | ((qh[i] << 2u) & 0x30303030u), 32.0), x[2u + i]);
        s.z = s.z + dot(q_b4(((l0[i] >> 4u) & 0x0f0f0f0fu) | (qh[i] & 0x30303030u), 32.0), x[4u + i]);
        s.w = s.w + dot(q_b4(((l1[i] >> 4u) & 0x0f0f0f0fu) | ((qh[i] >> 2u) & 0x30303030u), 32.0), x[6u + i]);
    }
    return q_f16(sb + 208u) * dot(sc, s);
}

// the other formats: unit k decoded to f32 (qblock.wgsl)
fn t_unit(rb: u32, k: u32, x: array<vec4<f32>, 8>) -> f32 {
    let w = q_unit(rb, k);
    var s = 0.0;
    for (var j = 0u; j < 8u; j = j + 1u) {
        s = s + dot(w[j], x[j]);
    }
    return s;
}

fn q_task(rb: u32, k: u32, x: array<vec4<f32>, 8>) -> f32 {
    switch OP {
        case 5u: { return t_q4_1(rb, k, x); }
        case 8u: { return t_q8_0(rb, k, x); }
        case 11u: { return t_q4_k(rb, k, x); }
        case 13u: { return t_q6_k(rb, k, x); }
        default: { return t_unit(rb, k, x); }
    }
}

@compute @workgroup_size(256)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) t: u32) {
    let g = wid.y * P.gx + wid.x;
    let N = P.sv.x;
    let T = P.sv.y;
    let lane = t & (L - 1u);
    let r0 = (g * (256u >> MB) + (t >> MB)) * R;
    var acc: array<vec4<f32>, R>;
    var rb: array<u32, R>;
    for (var i = 0u; i < R; i = i + 1u) {
        rb[i] = min(r0 + i, N - 1u) * P.sv.z;
    }
    if r0 < N {
        for (var k = lane; k < T; k = k + L) {
            for (var m = 0u; m < MA; m = m + 1u) {
                let xo = P.off.y + m * P.sv.w;
                var xv: array<vec4<f32>, 8>;   // the first TQ used
                for (var j = 0u; j < TQ; j = j + 1u) {
                    xv[j] = vec4<f32>(b[x_quad(xo, k, j)]);
                }
                for (var i = 0u; i < R; i = i + 1u) {
                    acc[i][m] = acc[i][m] + q_task(rb[i], k, xv);
                }
            }
        }
    }
    if W > 1u {
        for (var i = 0u; i < R; i = i + 1u) {
            acc[i] = sg_sum_n(acc[i], W);
        }
    }
    if W < L {
        for (var i = 0u; i < R; i = i + 1u) {
            red[256u * i + t] = acc[i];
        }
        workgroupBarrier();
        if lane == 0u {
            for (var i = 0u; i < R; i = i + 1u) {
                var s = red[256u * i + t];
                for (var j = W; j < L; j = j + W) {
                    s = s + red[256u * i + t + j];
                }
                acc[i] = s;
            }
        }
    }
    if lane == 0u {
        for (var i = 0u; i < R; i = i + 1u) {
            let r = r0 + i;
            if r < N {
                var bv = 0.0;
                if (MC & 1u) != 0u {
                    bv = f32(c[P.off.z + r]);
                }
                for (var m = 0u; m < MA; m = m + 1u) {
                    out[P.off.x + m * N + r] = SO(acc[i][m] + bv);
                }
            }
        }
    }
}
