// nn_bw.wgsl - the row-wise backward kernels of src/tensor/nn_backward.c, over contiguous
// tensors seen as rows: row o = (outer oo, inner ii) holds the K elements base + r I, base =
// oo K I + ii (I = 1 for the norms: rows of the last dim).  MA = 1: one invocation per row (rows
// of at most 64 elements: the loops stay short, and with I > 1 neighbouring lanes read
// neighbouring rows); MA = 0: one 256-lane workgroup per row, lanes strided over the row, sums
// through a shared-memory tree.  Sums in f32.
//   OP 0 softmax:     a = y, b = dy; dx = y (dy - sum(dy y))
//   OP 1 log_softmax: a = y, b = dy; dx = dy - exp(y) sum(dy)
//   OP 2 norm dx:     a = x, b = dy, c = weight (MB bit 1; else 1); the row's mean and 1 / std
//        recomputed (MB bit 0: rms, mean 0); g = dy w, xh = (x - mean) rstd;
//        dx = rstd (g - mean(g) - xh mean(g xh)), rms without the mean(g) term
//   OP 3 norm stats:  a = x; out [M, 2] f32 = (mean, rstd) per row
//   OP 4 norm dw partial sums: a = x, b = dy, c = stats (OP 3's); one invocation per (chunk s,
//        column k), out [S, K] f32 = sum over the chunk's L rows of dy xh; the caller sums the
//        chunks (L <= 65535: lavapipe's loop limit)
// Params: aux = (M rows, K, I, L), sv.x = eps (f32 bits).

const THREAD: bool = MA == 1u;
const RMS: bool = (MB & 1u) != 0u;
const HAS_W: bool = (MB & 2u) != 0u;

var<workgroup> red: array<vec2<f32>, 256>;

// the row's sum of v over the lanes (THREAD: v itself)
fn total(lid: u32, v: vec2<f32>) -> vec2<f32> {
    if THREAD { return v; }
    red[lid] = v;
    workgroupBarrier();
    for (var h = 128u; h > 0u; h = h >> 1u) {
        if lid < h { red[lid] = red[lid] + red[lid + h]; }
        workgroupBarrier();
    }
    let r = red[0];
    workgroupBarrier();
    return r;
}

// (mean, 1 / std) of the row at base (rms: (0, 1 / rms))
fn stats(lid: u32, live: bool, base: u32, r0: u32, step: u32) -> vec2<f32> {
    let K = P.aux.y;
    let eps = bitcast<f32>(P.sv.x);
    var s = vec2<f32>(0.0);
    for (var r = r0; live && r < K; r = r + step) {
        let x = f32(a[base + r]);
        if RMS { s.x = s.x + x * x; } else { s.x = s.x + x; }
    }
    let m = total(lid, s).x / f32(K);
    if RMS { return vec2<f32>(0.0, inverseSqrt(m + eps)); }
    var d = vec2<f32>(0.0);
    for (var r = r0; live && r < K; r = r + step) {
        let dv = f32(a[base + r]) - m;
        d.x = d.x + dv * dv;
    }
    return vec2<f32>(m, inverseSqrt(total(lid, d).x / f32(K) + eps));
}

fn weight(r: u32) -> f32 {
    if HAS_W { return f32(c[r]); }
    return 1.0;
}

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) g: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>,
        @builtin(local_invocation_index) lid: u32) {
    let M = P.aux.x;
    let K = P.aux.y;
    let I = P.aux.z;
    if OP == 4u {
        let i = elem_id(g);
        if i < P.n {
            let s = i / K;
            let k = i - s * K;
            let m1 = min(M, (s + 1u) * P.aux.w);
            var acc = 0.0;
            for (var m = s * P.aux.w; m < m1; m = m + 1u) {
                let e = m * K + k;
                acc = acc + f32(b[e]) * (f32(a[e]) - f32(c[2u * m])) * f32(c[2u * m + 1u]);
            }
            out[i] = SO(acc);
        }
        return;
    }
    var o = wid.y * P.gx + wid.x;
    var r0 = lid;
    var step = 256u;
    if THREAD {
        o = elem_id(g);
        r0 = 0u;
        step = 1u;
    }
    let live = o < M;
    let oo = o / I;
    let base = oo * K * I + (o - oo * I);
    if OP <= 1u {
        var s = vec2<f32>(0.0);
        for (var r = r0; live && r < K; r = r + step) {
            let i = base + r * I;
            let dy = f32(b[i]);
            if OP == 1u { s.x = s.x + dy; } else { s.x = s.x + dy * f32(a[i]); }
        }
        let t = total(lid, s).x;
        for (var r = r0; live && r < K; r = r + step) {
            let i = base + r * I;
            let y = f32(a[i]);
            let dy = f32(b[i]);
            if OP == 1u { out[i] = SO(dy - exp(y) * t); } else { out[i] = SO(y * (dy - t)); }
        }
        return;
    }
    let st = stats(lid, live, base, r0, step);
    if OP == 3u {
        if live && r0 == 0u {
            out[2u * o] = SO(st.x);
            out[2u * o + 1u] = SO(st.y);
        }
        return;
    }
    var s = vec2<f32>(0.0);
    for (var r = r0; live && r < K; r = r + step) {
        let gg = f32(b[base + r]) * weight(r);
        let xh = (f32(a[base + r]) - st.x) * st.y;
        s = s + vec2<f32>(gg, gg * xh);
    }
    let t = total(lid, s) / f32(K);
    var mg = t.x;
    if RMS { mg = 0.0; }
    for (var r = r0; live && r < K; r = r + step) {
        let gg = f32(b[base + r]) * weight(r);
        let xh = (f32(a[base + r]) - st.x) * st.y;
        out[base + r] = SO(st.y * (gg - mg - xh * t.y));
    }
}
