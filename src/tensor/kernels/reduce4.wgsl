// reduce4.wgsl - the vec4 fast path of reduce.wgsl (same parameter block, same partial buffer)
// for sum, prod, max, min and mean of 32-bit inputs, chosen by src/tensor/reduce.c when memory
// allows 16-byte loads:
//   MC 0 ROW: the reduced elements of an output are contiguous (one reduced dim of stride 1),
//        the row starts and the segment length are multiples of 4: lanes load vec4s, four
//        in flight;
//   MC 1 COL: the kept innermost dim has stride 1 and a size divisible by 4, every other stride
//        is a multiple of 4: an invocation owns 4 neighbouring outputs and loads one vec4 per
//        reduced element (P.n = invocations = M / 4 * segments);
//   MC 2 COL grouped (M divisible by 256): a workgroup is 64 such invocations x 4 segments
//        whose results meet in shared memory: one partial per 4 segments (P.n = workgroups *
//        256 = M / 256 * ceil(segments / 4) * 256).
// The identity of the op (0, 1, -inf/+inf, integer extremes) comes as bits of C in P.sv.z, so
// lanes without elements need no flag; max/min propagate NaN.  MB bit 1: write partials (pairs
// of value bits and index 0, as reduce.wgsl); bit 2: C is a float type.  Element addressing:
// base(o) + roff(r) from reduce_index.wgsl.

@group(0) @binding(0) var<storage, read_write> out: array<SO>;
@group(0) @binding(1) var<storage, read> a: array<vec4<SA>>;

const OUT_PARTIAL: bool = (MB & 2u) != 0u;
const IS_FLOAT: bool = (MB & 4u) != 0u;

var<workgroup> wv: array<C, 256>;
var<workgroup> wc: array<vec4<C>, 256>;

fn nan4(x: vec4<C>) -> vec4<bool> {
    return (bitcast<vec4<u32>>(x) & vec4<u32>(0x7fffffffu)) > vec4<u32>(0x7f800000u);
}

fn cmb(x: vec4<C>, y: vec4<C>) -> vec4<C> {
    if OP == 1u { return x * y; }
    if OP == 2u || OP == 3u {
        var m = max(x, y);
        if OP == 3u { m = min(x, y); }
        if IS_FLOAT { m = select(select(m, y, nan4(y)), x, nan4(x)); }
        return m;
    }
    return x + y;
}

fn cmb1(x: C, y: C) -> C {
    return cmb(vec4<C>(x), vec4<C>(y)).x;
}

fn ld(e: i32) -> vec4<C> {
    return vec4<C>(a[u32(e) >> 2u]);
}

fn store(o: u32, s: u32, v: C) {
    if OUT_PARTIAL {
        let p = o * P.off[1] + s * P.off[2];
        out[2u * p] = SO(bitcast<u32>(v));
        out[2u * p + 1u] = SO(0u);
    } else if OP == 6u {
        out[o] = SO(f32(v) * bitcast<f32>(P.sv.x));
    } else {
        out[o] = SO(v);
    }
}

// segment s of the 4 outputs 4 * o4 ..: one vec4 per reduced element, four in flight
fn column(o4: u32, s: u32, id: vec4<C>) -> vec4<C> {
    let K = P.aux.y;
    let L = P.aux.w;
    let b = base(4u * o4);
    let r0 = s * L;
    let r1 = min(K, r0 + L);
    var x0 = id;
    var x1 = id;
    var x2 = id;
    var x3 = id;
    var r = r0;
    if r1 >= 3u {
        loop {
            if r + 3u >= r1 { break; }
            let v0 = ld(b + roff(r));
            let v1 = ld(b + roff(r + 1u));
            let v2 = ld(b + roff(r + 2u));
            let v3 = ld(b + roff(r + 3u));
            x0 = cmb(x0, v0);
            x1 = cmb(x1, v1);
            x2 = cmb(x2, v2);
            x3 = cmb(x3, v3);
            r = r + 4u;
        }
    }
    loop {
        if r >= r1 { break; }
        x0 = cmb(x0, ld(b + roff(r)));
        r = r + 1u;
    }
    return cmb(cmb(x0, x1), cmb(x2, x3));
}

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) g: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>,
        @builtin(local_invocation_index) lid: u32) {
    let M = P.aux.x;
    let K = P.aux.y;
    let S = P.aux.z;
    let L = P.aux.w;
    let id = vec4<C>(bitcast<C>(P.sv.z));
    if MC == 1u {
        let t = elem_id(g);
        let M4 = M / 4u;
        if t < M4 * S {
            let o4 = t % M4;
            let s = t / M4;
            let x = column(o4, s, id);
            store(4u * o4, s, x.x);
            store(4u * o4 + 1u, s, x.y);
            store(4u * o4 + 2u, s, x.z);
            store(4u * o4 + 3u, s, x.w);
        }
    } else if MC == 2u {
        let w = wid.y * P.gx + wid.x;
        let nb = M / 256u;
        let G = (S + 3u) / 4u;
        let live = w < nb * G;
        let c = lid & 63u;
        var o4 = 0u;
        var sg = 0u;
        var x = id;
        if live {
            o4 = (w % nb) * 64u + c;
            sg = w / nb;
            let s = 4u * sg + (lid >> 6u);
            if s < S { x = column(o4, s, id); }
        }
        wc[lid] = x;
        workgroupBarrier();
        if live && lid < 64u {
            let y = cmb(cmb(wc[c], wc[c + 64u]), cmb(wc[c + 128u], wc[c + 192u]));
            store(4u * o4, sg, y.x);
            store(4u * o4 + 1u, sg, y.y);
            store(4u * o4 + 2u, sg, y.z);
            store(4u * o4 + 3u, sg, y.w);
        }
    } else {
        let w = wid.y * P.gx + wid.x;
        let live = w < M * S;
        var o = 0u;
        var s = 0u;
        var acc = id.x;
        if live {
            o = w / S;
            s = w % S;
            let r0 = s * L;
            let r1 = min(K, r0 + L);
            let b = base(o);
            // vec4 indices [q0, q1) of the segment; lanes stride by 256, four loads in flight
            let q0 = (u32(b) + r0) >> 2u;
            let q1 = (u32(b) + r1) >> 2u;
            var x0 = id;
            var x1 = id;
            var x2 = id;
            var x3 = id;
            var q = q0 + lid;
            loop {
                if q + 768u >= q1 { break; }
                let v0 = vec4<C>(a[q]);
                let v1 = vec4<C>(a[q + 256u]);
                let v2 = vec4<C>(a[q + 512u]);
                let v3 = vec4<C>(a[q + 768u]);
                x0 = cmb(x0, v0);
                x1 = cmb(x1, v1);
                x2 = cmb(x2, v2);
                x3 = cmb(x3, v3);
                q = q + 1024u;
            }
            loop {
                if q >= q1 { break; }
                x0 = cmb(x0, vec4<C>(a[q]));
                q = q + 256u;
            }
            let x = cmb(cmb(x0, x1), cmb(x2, x3));
            acc = cmb1(cmb1(x.x, x.y), cmb1(x.z, x.w));
        }
        wv[lid] = acc;
        workgroupBarrier();
        var h = 128u;
        loop {
            if h == 0u { break; }
            if lid < h { wv[lid] = cmb1(wv[lid], wv[lid + h]); }
            workgroupBarrier();
            h = h >> 1u;
        }
        if live && lid == 0u { store(o, s, wv[0]); }
    }
}
