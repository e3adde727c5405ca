// map1.wgsl - entry point of the one-input elementwise kernels (unary_f, unary_i, cast), one
// element per invocation, any addressing mode: out[i] = SO(op(C(a[index of i]))).

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) g: vec3<u32>) {
    let i = elem_id(g);
    if i >= P.n { return; }
    out[i] = SO(op(C(a[src_index(i, 0u, MA)])));
}
