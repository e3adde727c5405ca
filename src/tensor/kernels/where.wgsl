// where.wgsl - out = cond ? a : b.  cond (any dtype) is tested against zero; a and b convert
// to the output's storage type SO (the promoted dtype of a and b).

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) g: vec3<u32>) {
    let i = elem_id(g);
    if i >= P.n { return; }
    let cond = a[src_index(i, 0u, MA)] != SA(0);
    if cond {
        out[i] = SO(b[src_index(i, 1u, MB)]);
    } else {
        out[i] = SO(c[src_index(i, 2u, MC)]);
    }
}
