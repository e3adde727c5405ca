// copy4.wgsl - device copy of `wgc bench runtime`: dst = src on vec4<f32>, one vec4 per
// invocation, 2-D grid as in add4.wgsl.
@group(0) @binding(0) var<storage, read> src: array<vec4<f32>>;
@group(0) @binding(1) var<storage, read_write> dst: array<vec4<f32>>;

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
    let i = gid.x + gid.y * nwg.x * 256u;
    if (i < arrayLength(&dst)) {
        dst[i] = src[i];
    }
}
