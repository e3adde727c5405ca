// map2.wgsl - entry point of the two-input elementwise kernels (binary_f, binary_i, compare), one
// element per invocation, any addressing mode; b may be a scalar from the parameter block (MB 3):
// out[i] = SO(op(C(a[..]), C(b[..]))).

fn load_b(i: u32) -> C {
    if MB == 3u { return bitcast<C>(P.sv.y); }
    return C(b[src_index(i, 1u, MB)]);
}

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) g: vec3<u32>) {
    let i = elem_id(g);
    if i >= P.n { return; }
    out[i] = SO(op(C(a[src_index(i, 0u, MA)]), load_b(i)));
}
