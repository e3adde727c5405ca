// softmax.wgsl - softmax / log_softmax along one dim of any layout (src/tensor/nn.c): element
// (o, r) of row o lives at a[row_in(o) + r * P.aux.z] and goes to out[row_out(o) + r * P.aux.w],
// so a strided or transposed input is never copied.  Two layouts (MA):
//   0 ROW: one 256-lane workgroup per row; pass 1 keeps an online (max, sum) pair per lane
//        (sum rescaled whenever the max grows), the pairs meet in a shared-memory tree, pass 2
//        writes exp(x - max) / sum.  For rows too long for softmax4.wgsl's registers, or whose
//        elements are not contiguous.
//   1 COL: one invocation per row, the same two passes sequentially; chosen when neighbouring
//        rows are neighbours in memory (softmax over a leading dim): a wave reads one run.
// OP bit 0: log_softmax; bit 1: a row of -inf only gives zeros.  Params: ndim/shape = kept dims,
// st[0..1] their input strides, st[2..3] their output strides, off[0] = input offset,
// aux = (M rows, K, input stride along the dim, output stride along the dim).  No loop runs more
// than 65535 times per invocation (lavapipe's limit): nn.c sends longer COL rows to ROW.

const LOGSM: bool = (OP & 1u) != 0u;
const ZERO_EMPTY: bool = (OP & 2u) != 0u;

var<workgroup> rm: array<f32, 256>;
var<workgroup> rs: array<f32, 256>;

fn neg_inf() -> f32 {
    return bitcast<f32>(0xff800000u | P.pad0);
}

struct MS {
    m: f32,
    s: f32,
}

// merges two (max, sum of exp(x - max)) pairs; an empty pair has m = -inf and s = 0
fn merge(x: MS, y: MS) -> MS {
    let m = max(x.m, y.m);
    if m == neg_inf() { return MS(m, 0.0); }
    return MS(m, x.s * exp(x.m - m) + y.s * exp(y.m - m));
}

fn add(x: MS, v: f32) -> MS {
    if v > x.m { return MS(v, x.s * exp(x.m - v) + 1.0); }
    if v == neg_inf() { return x; }
    return MS(x.m, x.s + exp(v - x.m));
}

fn put(ob: i32, r: u32, x: f32, t: MS) {
    var y = exp(x - t.m) / t.s;
    if LOGSM { y = x - t.m - log(t.s); }
    if ZERO_EMPTY && t.m == neg_inf() { y = 0.0; }
    out[u32(ob + i32(r * P.aux.w))] = SO(y);
}

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) g: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>,
        @builtin(local_invocation_index) lid: u32) {
    let M = P.aux.x;
    let K = P.aux.y;
    let sa = i32(P.aux.z);
    if MA == 1u {
        let o = elem_id(g);
        if o < M {
            let ib = offset_of(o, 0u, i32(P.off[0]));
            let ob = offset_of(o, 1u, 0);
            var t = MS(neg_inf(), 0.0);
            for (var r = 0u; r < K; r = r + 1u) {
                t = add(t, f32(a[u32(ib + i32(r) * sa)]));
            }
            for (var r = 0u; r < K; r = r + 1u) {
                put(ob, r, f32(a[u32(ib + i32(r) * sa)]), t);
            }
        }
    } else {
        row(wid, lid, M, K, sa);
    }
}

fn row(wid: vec3<u32>, lid: u32, M: u32, K: u32, sa: i32) {
    let o = wid.y * P.gx + wid.x;
    let live = o < M;
    var t = MS(neg_inf(), 0.0);
    var ib = 0;
    var ob = 0;
    if live {
        ib = offset_of(o, 0u, i32(P.off[0]));
        ob = offset_of(o, 1u, 0);
        for (var r = lid; r < K; r = r + 256u) {
            t = add(t, f32(a[u32(ib + i32(r) * sa)]));
        }
    }
    rm[lid] = t.m;
    rs[lid] = t.s;
    workgroupBarrier();
    for (var h = 128u; h > 0u; h = h >> 1u) {
        if lid < h {
            let y = merge(MS(rm[lid], rs[lid]), MS(rm[lid + h], rs[lid + h]));
            rm[lid] = y.m;
            rs[lid] = y.s;
        }
        workgroupBarrier();
    }
    let tot = MS(rm[0], rs[0]);
    if live {
        for (var r = lid; r < K; r = r + 256u) {
            put(ob, r, f32(a[u32(ib + i32(r) * sa)]), tot);
        }
    }
}
