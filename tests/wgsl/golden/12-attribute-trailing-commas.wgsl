@compute @workgroup_size(8, 8,)
fn main(@builtin(global_invocation_id,) id: vec3<u32>) {
}
