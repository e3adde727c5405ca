// copy4.wgsl - copy.wgsl with 16-byte elements (8 for f16): chosen by src/tensor/movement.c when
// the innermost dim is contiguous on both sides and every offset, stride and the innermost size
// are multiples of 4 elements; P holds the shape and strides in vec4 units.

@group(0) @binding(0) var<storage, read_write> out: array<vec4<SO>>;
@group(0) @binding(1) var<storage, read> a: array<vec4<SA>>;

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) g: vec3<u32>) {
    let i = elem_id(g);
    if i >= P.n { return; }
    var rem = i;
    var s = i32(P.off[0]);
    var t = i32(P.off[1]);
    var d = P.ndim;
    loop {
        if d == 0u { break; }
        d = d - 1u;
        let sz = P.shape[d >> 2u][d & 3u];
        let q = rem / sz;
        let c = i32(rem - q * sz);
        s = s + c * P.st[d >> 2u][d & 3u];
        t = t + c * P.st[2u + (d >> 2u)][d & 3u];
        rem = q;
    }
    out[u32(t)] = vec4<SO>(a[u32(s)]);
}
