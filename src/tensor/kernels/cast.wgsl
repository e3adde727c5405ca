// cast.wgsl - out = SO(a): dtype conversion, and the copy behind `contiguous` when SO == SA.
// OP 1 converts to bool (x != 0, stored as u32 0/1); float to integer saturates (NaN -> 0).

@group(0) @binding(0) var<storage, read_write> out: array<SO>;
@group(0) @binding(1) var<storage, read> a: array<SA>;

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) g: vec3<u32>) {
    let i = elem_id(g);
    if i >= P.n { return; }
    let v = a[src_index(i, 0u, MA)];
    if OP == 1u {
        out[i] = SO(select(0u, 1u, v != SA(0)));
    } else {
        out[i] = SO(v);
    }
}
