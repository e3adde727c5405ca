// add4.wgsl - the bandwidth kernel of `wgc bench runtime`: c = a + b on vec4<f32>, one vec4 per
// invocation; the grid may be 2-D (x * 256 invocations per row) to pass the 65535 limit.
@group(0) @binding(0) var<storage, read> a: array<vec4<f32>>;
@group(0) @binding(1) var<storage, read> b: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read_write> c: array<vec4<f32>>;

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
    let i = gid.x + gid.y * nwg.x * 256u;
    if (i < arrayLength(&c)) {
        c[i] = a[i] + b[i];
    }
}
