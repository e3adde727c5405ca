// inc.wgsl - the tiny dependent op of `wgc bench runtime`: a[i] += 1 over 1024 floats.  Each
// dispatch reads what the previous one wrote, so the runtime must put a barrier between them.
@group(0) @binding(0) var<storage, read_write> a: array<f32>;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
    if (gid.x < arrayLength(&a)) {
        a[gid.x] = a[gid.x] + 1.0;
    }
}
