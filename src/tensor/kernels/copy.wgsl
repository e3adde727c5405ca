// copy.wgsl - a strided copy into a strided destination (src/tensor/movement.c: cat, stack):
// element i of the logical shape P.shape (rank P.ndim) goes from a[P.off[0] + i . strides 0] to
// out[P.off[1] + i . strides 1], so one dispatch fills one slice of a larger output in place.

@group(0) @binding(0) var<storage, read_write> out: array<SO>;
@group(0) @binding(1) var<storage, read> a: array<SA>;

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) g: vec3<u32>) {
    let i = elem_id(g);
    if i >= P.n { return; }
    out[strided_index(i, 1u)] = SO(a[strided_index(i, 0u)]);
}
