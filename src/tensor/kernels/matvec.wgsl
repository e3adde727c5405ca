// matvec.wgsl - the decode path of src/tensor/matmul.c: out[r] = sum_k X[r, k] * v[k] (+ bias),
// for a matrix whose rows are contiguous along k (a row-major weight W [N, K] times x, or
// x [1, K] . W^T as in wt_linear with one token).  Bandwidth-bound, so every byte of X is read
// once with 16-byte loads: X is array<vec4> (row r, quad k4 at P.off.x + r * P.sv.z + k4; all in
// quads, the C side checks alignment), v is a contiguous array<vec4> from quad P.off.y.
// A workgroup of 256 invocations takes 8 rows, 32 invocations per row; each walks its row in
// strides of 32 quads with four independent accumulators (four loads in flight), then the 32
// partial sums of a row are added in workgroup memory.  P.sv = (R rows, K / 4, row stride / 4,
// bias stride), P.off.z = bias offset; MC 1: add the bias.

@group(0) @binding(0) var<storage, read_write> out: array<SO>;
@group(0) @binding(1) var<storage, read> a: array<vec4<SA>>;
@group(0) @binding(2) var<storage, read> b: array<vec4<SB>>;
@group(0) @binding(3) var<storage, read> c: array<SC>;

var<workgroup> red: array<f32, 256>;

@compute @workgroup_size(256)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) t: u32) {
    let g = wid.y * P.gx + wid.x;
    if g >= P.n / 256u { return; }
    let R = P.sv.x;
    let K4 = P.sv.y;
    let lane = t % 32u;
    let r = g * 8u + t / 32u;
    let live = r < R;
    let row = P.off.x + min(r, R - 1u) * P.sv.z;
    let vb = P.off.y;
    var s0 = vec4<f32>(0.0);
    var s1 = vec4<f32>(0.0);
    var s2 = vec4<f32>(0.0);
    var s3 = vec4<f32>(0.0);
    var k = lane;
    if live {
        loop {
            if k + 96u >= K4 { break; }
            let x0 = vec4<f32>(a[row + k]);
            let x1 = vec4<f32>(a[row + k + 32u]);
            let x2 = vec4<f32>(a[row + k + 64u]);
            let x3 = vec4<f32>(a[row + k + 96u]);
            s0 = fma(x0, vec4<f32>(b[vb + k]), s0);
            s1 = fma(x1, vec4<f32>(b[vb + k + 32u]), s1);
            s2 = fma(x2, vec4<f32>(b[vb + k + 64u]), s2);
            s3 = fma(x3, vec4<f32>(b[vb + k + 96u]), s3);
            k = k + 128u;
        }
        loop {
            if k >= K4 { break; }
            s0 = fma(vec4<f32>(a[row + k]), vec4<f32>(b[vb + k]), s0);
            k = k + 32u;
        }
    }
    let s = (s0 + s1) + (s2 + s3);
    red[t] = (s.x + s.y) + (s.z + s.w);
    workgroupBarrier();
    for (var h = 16u; h > 0u; h = h / 2u) {
        if lane < h { red[t] = red[t] + red[t + h]; }
        workgroupBarrier();
    }
    if lane == 0u && live {
        var y = red[t];
        if MC == 1u { y = y + f32(c[P.off.z + r * P.sv.w]); }
        out[r] = SO(y);
    }
}
