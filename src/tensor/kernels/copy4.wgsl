// copy4.wgsl - copy.wgsl with 16-byte elements (8 for f16): chosen by src/tensor/movement.c when
// the innermost dim is contiguous on both sides and every offset, stride and the innermost size
// are multiples of 4 elements; P holds the shape and strides in vec4 units.

@group(0) @binding(0) var<storage, read_write> out: array<vec4<SO>>;
@group(0) @binding(1) var<storage, read> a: array<vec4<SA>>;

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) g: vec3<u32>) {
    let i = elem_id(g);
    if i >= P.n { return; }
    let st = strided_pair(i);
    out[u32(st.y)] = vec4<SO>(a[u32(st.x)]);
}
