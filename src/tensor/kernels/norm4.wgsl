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

var<workgroup> red: array<f32, 256>;
var<workgroup> red2: array<f32, 128>;

// The sum (or max) over the LPR lanes of each row in two barriers: lanes l < 16 of a row fold
// LPR / 16 values each, then every lane folds the row's 16 partials.  A following call is safe
// (its first barrier orders it after this call's reads).
fn row_reduce(lid: u32, v: f32, is_max: bool) -> f32 {
    red[lid] = v;
    workgroupBarrier();
    let l = lid % LPR;
    let head = lid - l;
    let pb = head / LPR * 16u;
    if l < 16u {
        var x = red[head + l];
        for (var i = 1u; i < LPR / 16u; i = i + 1u) {
            let y = red[head + l + 16u * i];
            x = select(x + y, max(x, y), is_max);
        }
        red2[pb + l] = x;
    }
    workgroupBarrier();
    var x = red2[pb];
    for (var i = 1u; i < 16u; i = i + 1u) {
        let y = red2[pb + i];
        x = select(x + y, max(x, y), is_max);
    }
    return x;
}

fn row_base(o: u32) -> u32 {
    var rem = o;
    var b = i32(P.off[0]);
    var d = P.ndim;
    loop {
        if d == 0u { break; }
        d = d - 1u;
        let sz = P.shape[d >> 2u][d & 3u];
        let q = rem / sz;
        b = b + i32(rem - q * sz) * P.st[d >> 2u][d & 3u];
        rem = q;
    }
    return u32(b);
}

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
        let bi = row_base(row) / 4u;
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
