// scale.wgsl - y = 2 x over f32 arrays, one element per invocation: the kernel the README's
// commands and Python snippet run (tests/cli/test_readme.sh runs them as written).
@group(0) @binding(0) var<storage, read> x: array<f32>;
@group(0) @binding(1) var<storage, read_write> y: array<f32>;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    if id.x < arrayLength(&y) {
        y[id.x] = 2.0 * x[id.x];
    }
}
