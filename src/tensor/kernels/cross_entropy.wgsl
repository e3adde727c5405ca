// cross_entropy.wgsl - wt_cross_entropy's forward and backward (src/tensor/loss.c) over
// contiguous logits x [N, C] (a, f32 or f16) and class indices t [N] (b, i32 or u32; ignored
// rows come as 0 and get weight 0), so that beyond the logits and their gradient only O(N) is
// written.  e = label smoothing (sv.x, f32 bits); aux = (N, C).  A negative target counts from
// the end and one still out of range picks 0, as gather.wgsl and scatter.wgsl do.
//   OP 0 forward: one 256-lane workgroup per row; each lane keeps an online (max, sum of
//        exp(x - max)) pair and the sum of x over its strided elements (C / 256 steps, far
//        below lavapipe's 65,535), the lanes meet in a shared-memory tree; out [N, 2] f32 =
//        (lse, loss) with lse = max + log(sum) and loss = (1 - e) (lse - x[t]) + e (lse - mean(x)).
//   OP 1 backward: one invocation per element; c = [N, 2] f32 (lse, w g) per row;
//        out [N, C] (x's dtype) = (exp(x - lse) - e / C - (1 - e) [j == t]) w g.

var<workgroup> red: array<vec3<f32>, 256>;

fn neg_inf() -> f32 {
    return bitcast<f32>(0xff800000u | P.pad0);
}

// merges two (max, sum of exp(x - max), sum of x); an empty one has max -inf and sums 0
fn merge(x: vec3<f32>, y: vec3<f32>) -> vec3<f32> {
    let m = max(x.x, y.x);
    if m == neg_inf() { return vec3<f32>(m, 0.0, x.z + y.z); }
    return vec3<f32>(m, x.y * exp(x.x - m) + y.y * exp(y.x - m), x.z + y.z);
}

// row's target column, or -1 when out of range
fn class_of(row: u32, C: u32) -> i32 {
    var t = i32(b[row]);
    if t < 0 { t = t + i32(C); }
    if t < 0 || t >= i32(C) { return -1; }
    return t;
}

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) g: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>,
        @builtin(local_invocation_index) lid: u32) {
    let N = P.aux.x;
    let C = P.aux.y;
    let e = bitcast<f32>(P.sv.x);
    if OP == 1u {
        let i = elem_id(g);
        if i < P.n {
            let row = i / C;
            let j = i - row * C;
            let lse = f32(c[2u * row]);
            let wg = f32(c[2u * row + 1u]);
            var d = exp(f32(a[i]) - lse) - e / f32(C);
            if i32(j) == class_of(row, C) { d = d - (1.0 - e); }
            out[i] = SO(d * wg);
        }
        return;
    }
    let row = wid.y * P.gx + wid.x;
    let live = row < N;
    var s = vec3<f32>(neg_inf(), 0.0, 0.0);
    for (var j = lid; live && j < C; j = j + 256u) {
        let v = f32(a[row * C + j]);
        s = merge(s, vec3<f32>(v, 1.0, v));
    }
    red[lid] = s;
    workgroupBarrier();
    for (var h = 128u; h > 0u; h = h >> 1u) {
        if lid < h { red[lid] = merge(red[lid], red[lid + h]); }
        workgroupBarrier();
    }
    if live && lid == 0u {
        let r = red[0];
        let lse = r.x + log(r.y);
        let t = class_of(row, C);
        var pick = 0.0;
        if t >= 0 { pick = f32(a[row * C + u32(t)]); }
        out[2u * row] = SO(lse);
        out[2u * row + 1u] = SO((1.0 - e) * (lse - pick) + e * (lse - r.z / f32(C)));
    }
}
