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
        bi = row_base(row) / 4u;
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
