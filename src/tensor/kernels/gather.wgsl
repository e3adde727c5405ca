// gather.wgsl - gather, index_select and embedding (src/tensor/movement.c): out (contiguous,
// shape P.shape) element i reads index b[P.off[1] + i . strides 1] (i32 or u32) and then
// a[P.off[0] + i . strides 0 + index * P.aux.y], where strides 0 has 0 along the gathered dim,
// whose size is P.aux.x.  A negative index counts from the end; one out of range reads 0.

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) g: vec3<u32>) {
    let i = elem_id(g);
    if i >= P.n { return; }
    let k = wrap_index(u32(b[strided_index(i, 1u)]), i32(P.aux.x));
    if k < 0 {
        out[i] = SO(0);
        return;
    }
    out[i] = SO(a[u32(i32(strided_index(i, 0u)) + k * bitcast<i32>(P.aux.y))]);
}
