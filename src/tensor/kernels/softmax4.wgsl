// softmax4.wgsl - softmax / log_softmax of rows that are contiguous in memory (the softmax dim is
// the innermost non-trivial dim of both the input and the contiguous output, K % 4 == 0, row
// starts at multiples of 4), in one pass over memory: each lane loads its share of the row as
// vec4s into registers (NV slots), the row's max and sum meet in shared memory (two barriers per statistic), and the
// result is written from the registers (one read, one write per element; src/tensor/nn.c).
// Specialisation (prelude of src/tensor/kernel.c):
//   OP  bit 0: log_softmax; bit 1: a row of -inf only gives zeros (attention: no visible key)
//   MB  lanes per row: 0 -> 256 (one row per workgroup), 1 -> 32 (8 rows per workgroup)
//   MC  NV, vec4 slots per lane: K / 4 <= lanes * NV
// Params: ndim/shape/st[0..1] = kept dims and their input strides (rows), off[0] = input offset,
// aux = (M rows, K).  Output row o starts at o * K.  P.n = workgroups * 256.

@group(0) @binding(0) var<storage, read_write> out: array<vec4<SO>>;
@group(0) @binding(1) var<storage, read> a: array<vec4<SA>>;

const LOGSM: bool = (OP & 1u) != 0u;
const ZERO_EMPTY: bool = (OP & 2u) != 0u;
const LPR: u32 = 256u >> (3u * MB);
const NV: u32 = MC;

fn neg_inf() -> f32 {
    return bitcast<f32>(0xff800000u | P.pad0);
}

@compute @workgroup_size(256)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
    let M = P.aux.x;
    let K4 = P.aux.y / 4u;
    let row = (wid.y * P.gx + wid.x) * (256u / LPR) + lid / LPR;
    let l = lid % LPR;
    let live = row < M;
    var v: array<vec4<f32>, NV>;
    var mx = neg_inf();
    var bi = 0u;
    if live {
        bi = strided_index(row, 0u) / 4u;
        for (var j = 0u; j < NV; j = j + 1u) {
            let q = l + LPR * j;
            if q < K4 {
                let x = vec4<f32>(a[bi + q]);
                v[j] = x;
                mx = max(mx, max(max(x.x, x.y), max(x.z, x.w)));
            }
        }
    }
    let m = row_reduce(lid, mx, true);
    var s = 0.0;
    if live {
        for (var j = 0u; j < NV; j = j + 1u) {
            if l + LPR * j < K4 {
                let e = exp(v[j] - vec4<f32>(m));
                if !LOGSM { v[j] = e; }
                s = s + (e.x + e.y) + (e.z + e.w);
            }
        }
    }
    let tot = row_reduce(lid, s, false);
    if live {
        let bo = row * K4;
        let empty = ZERO_EMPTY && m == neg_inf();
        let r = 1.0 / tot;
        let sh = m + log(tot);
        for (var j = 0u; j < NV; j = j + 1u) {
            let q = l + LPR * j;
            if q < K4 {
                var y = v[j] * r;
                if LOGSM { y = v[j] - vec4<f32>(sh); }
                if empty { y = vec4<f32>(0.0); }
                out[bo + q] = vec4<SO>(y);
            }
        }
    }
}
