// reduce.wgsl - reductions (src/tensor/reduce.c): sum, prod, max, min, argmax, argmin, mean of an
// input seen as M outputs x K reduced elements.  The C side permutes the logical dims so that the
// kept dims come first (P.shape[0 .. P.ndim), strides P.st, input 0) and the reduced dims after
// them (P.shape[P.ndim .. P.ndim + P.sv.y)), merging dims whose strides allow it, so no input is
// ever transposed: element (o, r) lives at base(o) + roff(r) (reduce_index.wgsl, put after this
// file by src/tensor/kernel.c, as for reduce4.wgsl).
//
// The K elements of an output are split into P.aux.z segments of P.aux.w elements; each segment
// gives one accumulator (value, index).  When there is more than one segment, the accumulators go
// to a partial buffer of u32 word pairs (value bits, index) at pair o * P.off[1] + s * P.off[2],
// and a second dispatch reduces those (input pairs, MB bit 0) exactly like any other input.
// Specialisation (the prelude of src/tensor/kernel.c):
//   OP  0 sum, 1 prod, 2 max, 3 min, 4 argmax, 5 argmin, 6 mean (sum times the f32 P.sv.x)
//   MB  bit 0: the input is a partial buffer; bit 1: write partials; bit 2: C is a float type
//   MC  0 ROW: one 256-wide workgroup per (output, segment), its lanes stride over the segment
//         and meet in a shared-memory tree (for reductions over contiguous memory);
//       1 COL: one invocation per (output, segment), a sequential loop (for reductions over a
//         strided dim where neighbouring outputs are neighbours in memory: coalesced reads)
// P.aux = (M, K, segments, segment length); P.n = invocations (ROW: workgroups * 256).
// max/min/argmax/argmin share one combine: NaN wins (numpy propagates NaN), ties go to the
// lower index (numpy's first occurrence).  An accumulator with index EMPTY holds nothing yet.
// Segments are capped by the C side so that no invocation loops more than 65535 times.

const IN_PARTIAL: bool = (MB & 1u) != 0u;
const OUT_PARTIAL: bool = (MB & 2u) != 0u;
const IS_FLOAT: bool = (MB & 4u) != 0u;
const EMPTY: u32 = 0xffffffffu;

var<workgroup> wv: array<C, 256>;
var<workgroup> wi: array<u32, 256>;

fn is_nan(x: C) -> bool {
    return IS_FLOAT && (bitcast<u32>(x) & 0x7fffffffu) > 0x7f800000u;
}

fn identity() -> C {
    if OP == 1u { return C(1); }
    return C(0);
}

fn is_extremum() -> bool {
    return OP >= 2u && OP <= 5u;
}

// true when accumulator b should replace a (max/min family)
fn pick_b(va: C, ia: u32, vb: C, ib: u32) -> bool {
    if ib == EMPTY { return false; }
    if ia == EMPTY { return true; }
    let na = is_nan(va);
    let nb = is_nan(vb);
    if na || nb {
        if na && nb { return ib < ia; }
        return nb;
    }
    if vb == va { return ib < ia; }
    if OP == 2u || OP == 4u { return vb > va; }
    return vb < va;
}

fn load_v(e: i32) -> C {
    if IN_PARTIAL { return bitcast<C>(u32(a[2u * u32(e)])); }
    return C(a[u32(e)]);
}

fn load_i(e: i32, r: u32) -> u32 {
    if IN_PARTIAL { return u32(a[2u * u32(e) + 1u]); }
    return r;
}

struct Acc {
    v: C,
    i: u32,
}

fn combine(x: Acc, v: C, i: u32) -> Acc {
    if is_extremum() {
        if pick_b(x.v, x.i, v, i) { return Acc(v, i); }
        return x;
    }
    if OP == 1u { return Acc(x.v * v, 0u); }
    return Acc(x.v + v, 0u);
}

fn store(o: u32, s: u32, x: Acc) {
    if OUT_PARTIAL {
        let p = o * P.off[1] + s * P.off[2];
        out[2u * p] = SO(bitcast<u32>(x.v));
        out[2u * p + 1u] = SO(x.i);
        return;
    }
    if OP == 4u || OP == 5u {
        out[o] = SO(x.i);
    } else if OP == 6u {
        out[o] = SO(f32(x.v) * bitcast<f32>(P.sv.x));
    } else {
        out[o] = SO(x.v);
    }
}

// reduces elements [r0, r1) of output o, lanes lane, lane + step, ...; four independent
// accumulators keep four loads in flight per invocation (memory-level parallelism)
fn run(o: u32, r0: u32, r1: u32, lane: u32, step: u32) -> Acc {
    var x0 = Acc(identity(), EMPTY);
    var x1 = x0;
    var x2 = x0;
    var x3 = x0;
    let b = base(o);
    var r = r0 + lane;
    let step4 = 4u * step;
    if r1 >= 3u * step {
        let last = r1 - 3u * step;
        loop {
            if r >= last { break; }
            let e0 = b + roff(r);
            let e1 = b + roff(r + step);
            let e2 = b + roff(r + 2u * step);
            let e3 = b + roff(r + 3u * step);
            let v0 = load_v(e0);
            let v1 = load_v(e1);
            let v2 = load_v(e2);
            let v3 = load_v(e3);
            x0 = combine(x0, v0, load_i(e0, r));
            x1 = combine(x1, v1, load_i(e1, r + step));
            x2 = combine(x2, v2, load_i(e2, r + 2u * step));
            x3 = combine(x3, v3, load_i(e3, r + 3u * step));
            r = r + step4;
        }
    }
    loop {
        if r >= r1 { break; }
        let e = b + roff(r);
        x0 = combine(x0, load_v(e), load_i(e, r));
        r = r + step;
    }
    x0 = combine(x0, x1.v, x1.i);
    x2 = combine(x2, x3.v, x3.i);
    return combine(x0, x2.v, x2.i);
}

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) g: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>,
        @builtin(local_invocation_index) lid: u32) {
    let M = P.aux.x;
    let K = P.aux.y;
    let S = P.aux.z;
    let L = P.aux.w;
    if MC == 1u {
        let t = elem_id(g);
        if t < M * S {
            let o = t % M;
            let s = t / M;
            let r0 = s * L;
            store(o, s, run(o, r0, min(K, r0 + L), 0u, 1u));
        }
    } else {
        let w = wid.y * P.gx + wid.x;
        let live = w < M * S;
        var o = 0u;
        var s = 0u;
        var x = Acc(identity(), EMPTY);
        if live {
            o = w / S;
            s = w % S;
            let r0 = s * L;
            x = run(o, r0, min(K, r0 + L), lid, 256u);
        }
        wv[lid] = x.v;
        wi[lid] = x.i;
        workgroupBarrier();
        var h = 128u;
        loop {
            if h == 0u { break; }
            if lid < h {
                let y = combine(Acc(wv[lid], wi[lid]), wv[lid + h], wi[lid + h]);
                wv[lid] = y.v;
                wi[lid] = y.i;
            }
            workgroupBarrier();
            h = h >> 1u;
        }
        if live && lid == 0u {
            store(o, s, Acc(wv[0], wi[0]));
        }
    }
}
