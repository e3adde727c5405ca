// norm4.wgsl - layernorm / rmsnorm over the last dim of rows that are contiguous (K % 4 == 0,
// row starts at multiples of 4) in one pass over memory: each lane keeps its share of the row in
// registers as vec4s (NV slots), the statistics meet in shared memory (two barriers each), and the result is
// written from the registers (src/tensor/nn.c).  layernorm takes two trees (the mean, then the
// mean of squared deviations: no cancellation), rmsnorm one (the mean of squares).
// Specialisation: OP bit 0 rmsnorm (else layernorm), bit 1 weight (input b), bit 2 bias (input
// c); MB lanes per row (0 -> 256, 1 -> 32); MC = NV, vec4 slots per lane (K / 4 <= lanes * NV).
// Params: ndim/shape/st[0..1] = kept dims and their input strides, off = offsets of x, weight,
// bias, aux = (M rows, K), sv.x = eps (f32 bits).  Output row o starts at o * K.

@group(0) @binding(0) var<storage, read_write> out: array<vec4<SO>>;
@group(0) @binding(1) var<storage, read> a: array<vec4<SA>>;
@group(0) @binding(2) var<storage, read> wb: array<vec4<SB>>;
@group(0) @binding(3) var<storage, read> bb: array<vec4<SC>>;

const RMS: bool = (OP & 1u) != 0u;
const HAS_W: bool = (OP & 2u) != 0u;
const HAS_B: bool = (OP & 4u) != 0u;
const LPR: u32 = 256u >> (3u * MB);
const NV: u32 = MC;

@compute @workgroup_size(256)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
    let M = P.aux.x;
    let K = P.aux.y;
    let K4 = K / 4u;
    let row = (wid.y * P.gx + wid.x) * (256u / LPR) + lid / LPR;
    let l = lid % LPR;
    let live = row < M;
    var v: array<vec4<f32>, NV>;
    var s = 0.0;
    if live {
        let bi = strided_index(row, 0u) / 4u;
        for (var j = 0u; j < NV; j = j + 1u) {
            let q = l + LPR * j;
            if q < K4 {
                let x = vec4<f32>(a[bi + q]);
                v[j] = x;
                var y = x;
                if RMS { y = x * x; }
                s = s + (y.x + y.y) + (y.z + y.w);
            }
        }
    }
    let mean = row_reduce(lid, s, false) / f32(K);
    var mu = 0.0;
    var inv = 0.0;
    let eps = bitcast<f32>(P.sv.x);
    if RMS {
        inv = inverseSqrt(mean + eps);
    } else {
        mu = mean;
        var d2 = 0.0;
        if live {
            for (var j = 0u; j < NV; j = j + 1u) {
                if l + LPR * j < K4 {
                    let dv = v[j] - vec4<f32>(mu);
                    d2 = d2 + dot(dv, dv);
                }
            }
        }
        inv = inverseSqrt(row_reduce(lid, d2, false) / f32(K) + eps);
    }
    if live {
        let bo = row * K4;
        let wo = P.off[1] / 4u;
        let bo2 = P.off[2] / 4u;
        for (var j = 0u; j < NV; j = j + 1u) {
            let q = l + LPR * j;
            if q < K4 {
                var y = (v[j] - vec4<f32>(mu)) * inv;
                if HAS_W { y = y * vec4<f32>(wb[wo + q]); }
                if HAS_B { y = y + vec4<f32>(bb[bo2 + q]); }
                out[bo + q] = vec4<SO>(y);
            }
        }
    }
}
