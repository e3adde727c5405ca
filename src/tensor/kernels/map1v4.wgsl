// map1v4.wgsl - the vec4 entry point of one-input elementwise kernels: four elements per
// invocation with 16-byte loads and stores (8-byte for f16).  Used when the element count is a
// multiple of 4 and the input is contiguous at an offset that is a multiple of 4 (MA == 1) or a
// single element (MA == 2).  P.n counts vec4s.

@group(0) @binding(0) var<storage, read_write> out: array<vec4<SO>>;
@group(0) @binding(1) var<storage, read> a: array<vec4<SA>>;

fn load4_a(i: u32) -> vec4<SA> {
    let o = P.off[0];
    if MA == 2u { return vec4<SA>(a[o >> 2u][o & 3u]); }
    return a[(o >> 2u) + i];
}

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) g: vec3<u32>) {
    let e = elem_id(g);
    let base = (e - (g.x & 255u)) * VPT + (g.x & 255u);
    for (var k = 0u; k < VPT; k++) {
        let i = base + k * 256u;
        if i >= P.n { return; }
        let x = load4_a(i);
        out[i] = vec4<SO>(SO(op(C(x.x))), SO(op(C(x.y))), SO(op(C(x.z))), SO(op(C(x.w))));
    }
}
