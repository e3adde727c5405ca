// qmatmul.wgsl - the prefill path of src/tensor/quant.c: out[m, n] = sum_k x[m, k] W[n, k] (+ bias[n])
// for M > 4 rows of x and a weight W [N, K] in a block format (qblock.wgsl, OP).  A workgroup
// owns a tile of 32 x rows by 64 weight rows and walks K 64 weights (two units) at a time: 128
// invocations decode one unit each into workgroup memory (f32, the exact weights) while the other
// 128 load the x tile (f32 or f16 widened; zeros past M and K), then every invocation accumulates
// 2 x 4 outputs in f32: x rows 2 ty, 2 ty + 1 and weight rows tx, tx + 16, tx + 32, tx + 48.  Tile
// rows are 17 quads apart, so the 16 lanes reading 16 rows at one k hit different banks.
// P.sv = (N, U units per row, bytes per row, x row stride in quads), P.aux = (M, tiles along N),
// P.off = (output's first element, x's first quad, bias's first element); MC bit 0: add the bias.
// Loop bound: U / 2 <= 16384 K steps (K <= 2^20, quant.c refuses more).

@group(0) @binding(0) var<storage, read_write> out: array<SO>;
@group(0) @binding(1) var<storage, read> wq: array<u32>;
@group(0) @binding(2) var<storage, read> b: array<vec4<SB>>;
@group(0) @binding(3) var<storage, read> c: array<SC>;

var<workgroup> ws: array<vec4<f32>, 1088>;   // 64 weight rows x 16 quads, stride 17
var<workgroup> xs: array<vec4<f32>, 544>;    // 32 x rows x 16 quads, stride 17

@compute @workgroup_size(256)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) t: u32) {
    let g = wid.y * P.gx + wid.x;
    let N = P.sv.x;
    let U = P.sv.y;
    let M = P.aux.x;
    let NT = P.aux.y;
    if g >= P.n / 256u { return; }
    let n0 = (g % NT) * 64u;
    let m0 = (g / NT) * 32u;
    let tx = t & 15u;
    let ty = t >> 4u;
    var acc0 = vec4<f32>(0.0);
    var acc1 = vec4<f32>(0.0);
    for (var u0 = 0u; u0 < U; u0 = u0 + 2u) {
        if t < 128u {
            let row = t >> 1u;
            let u = u0 + (t & 1u);
            let n = n0 + row;
            var w: array<vec4<f32>, 8>;
            if n < N && u < U { w = q_unit(n * P.sv.z, u); }
            let base = row * 17u + (t & 1u) * 8u;
            for (var j = 0u; j < 8u; j = j + 1u) { ws[base + j] = w[j]; }
        } else {
            for (var q = 0u; q < 4u; q = q + 1u) {
                let e = (t - 128u) + 128u * q;
                let mr = e >> 4u;
                let kq = e & 15u;
                let m = m0 + mr;
                let k4 = u0 * 8u + kq;
                var v = vec4<f32>(0.0);
                if m < M && k4 < U * 8u { v = vec4<f32>(b[P.off.y + m * P.sv.w + k4]); }
                xs[mr * 17u + kq] = v;
            }
        }
        workgroupBarrier();
        for (var kq = 0u; kq < 16u; kq = kq + 1u) {
            let x0 = xs[(2u * ty) * 17u + kq];
            let x1 = xs[(2u * ty + 1u) * 17u + kq];
            let w0 = ws[tx * 17u + kq];
            let w1 = ws[(tx + 16u) * 17u + kq];
            let w2 = ws[(tx + 32u) * 17u + kq];
            let w3 = ws[(tx + 48u) * 17u + kq];
            acc0 = acc0 + vec4<f32>(dot(x0, w0), dot(x0, w1), dot(x0, w2), dot(x0, w3));
            acc1 = acc1 + vec4<f32>(dot(x1, w0), dot(x1, w1), dot(x1, w2), dot(x1, w3));
        }
        workgroupBarrier();
    }
    for (var i = 0u; i < 2u; i = i + 1u) {
        let m = m0 + 2u * ty + i;
        let a = select(acc1, acc0, i == 0u);
        for (var j = 0u; j < 4u; j = j + 1u) {
            let n = n0 + tx + 16u * j;
            if m < M && n < N {
                var y = a[j];
                if (MC & 1u) != 0u { y = y + f32(c[P.off.z + n]); }
                out[P.off.x + m * N + n] = SO(y);
            }
        }
    }
}
