// norm.wgsl - layernorm / rmsnorm over the last dim of any layout (src/tensor/nn.c): element r
// of row o is a[row_in(o) + r * P.aux.z]; one 256-lane workgroup per row, passes over the row
// with shared-memory trees in between (layernorm: the mean, then the mean of squared
// deviations, then the write; rmsnorm: the mean of squares, then the write).  For rows that
// norm4.wgsl cannot hold in registers or whose elements are not contiguous.
// OP bit 0 rmsnorm, bit 1 weight (input b, contiguous), bit 2 bias (input c, contiguous).
// Params: ndim/shape/st[0..1] = kept dims and their input strides, off = offsets of x, weight,
// bias, aux = (M rows, K, input stride along the last dim), sv.x = eps.  Output row o at o * K.

const RMS: bool = (OP & 1u) != 0u;
const HAS_W: bool = (OP & 2u) != 0u;
const HAS_B: bool = (OP & 4u) != 0u;

var<workgroup> red: array<f32, 256>;

fn tree(lid: u32, v: f32) -> f32 {
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

@compute @workgroup_size(256)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
    let M = P.aux.x;
    let K = P.aux.y;
    let sa = i32(P.aux.z);
    let row = wid.y * P.gx + wid.x;
    let live = row < M;
    var ib = 0;
    var s = 0.0;
    if live {
        ib = i32(strided_index(row, 0u));
        for (var r = lid; r < K; r = r + 256u) {
            let x = f32(a[u32(ib + i32(r) * sa)]);
            if RMS { s = s + x * x; } else { s = s + x; }
        }
    }
    let mean = tree(lid, s) / f32(K);
    let eps = bitcast<f32>(P.sv.x);
    var mu = 0.0;
    var inv = 0.0;
    if RMS {
        inv = inverseSqrt(mean + eps);
    } else {
        mu = mean;
        var d2 = 0.0;
        if live {
            for (var r = lid; r < K; r = r + 256u) {
                let dv = f32(a[u32(ib + i32(r) * sa)]) - mu;
                d2 = d2 + dv * dv;
            }
        }
        inv = inverseSqrt(tree(lid, d2) / f32(K) + eps);
    }
    if live {
        for (var r = lid; r < K; r = r + 256u) {
            var y = (f32(a[u32(ib + i32(r) * sa)]) - mu) * inv;
            if HAS_W { y = y * f32(b[P.off[1] + r]); }
            if HAS_B { y = y + f32(c[P.off[2] + r]); }
            out[row * K + r] = SO(y);
        }
    }
}
