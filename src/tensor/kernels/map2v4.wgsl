// map2v4.wgsl - the vec4 entry point of two-input elementwise kernels: four elements per
// invocation, 16-byte loads and stores.  Each input is contiguous at an offset that is a multiple
// of 4 (mode 1), a single element (mode 2) or, for b, a scalar from the parameter block (mode 3).
// P.n counts vec4s.  With VPT > 1 (WGC_EW_VPT) an invocation does VPT vec4s, 256 apart, so a
// workgroup covers 256 * VPT consecutive vec4s and every load stays coalesced.

@group(0) @binding(0) var<storage, read_write> out: array<vec4<SO>>;
@group(0) @binding(1) var<storage, read> a: array<vec4<SA>>;
@group(0) @binding(2) var<storage, read> b: array<vec4<SB>>;

fn load4_a(i: u32) -> vec4<C> {
    let o = P.off[0];
    if MA == 2u { return vec4<C>(C(a[o >> 2u][o & 3u])); }
    return vec4<C>(a[(o >> 2u) + i]);
}

fn load4_b(i: u32) -> vec4<C> {
    let o = P.off[1];
    if MB == 3u { return vec4<C>(bitcast<C>(P.sv.y)); }
    if MB == 2u { return vec4<C>(C(b[o >> 2u][o & 3u])); }
    return vec4<C>(b[(o >> 2u) + i]);
}

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) g: vec3<u32>) {
    let e = elem_id(g);
    let base = (e - (g.x & 255u)) * VPT + (g.x & 255u);
    for (var k = 0u; k < VPT; k++) {
        let i = base + k * 256u;
        if i >= P.n { return; }
        let x = load4_a(i);
        let y = load4_b(i);
        out[i] = vec4<SO>(SO(op(x.x, y.x)), SO(op(x.y, y.y)), SO(op(x.z, y.z)), SO(op(x.w, y.w)));
    }
}
