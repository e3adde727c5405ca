fn add3(a: u32, b: u32, c: u32) -> u32 { return a + b + c; }
@group(0) @binding(0) var<storage, read_write> out: array<u32>;

@compute @workgroup_size(1)
fn main(@builtin(global_invocation_id) gid: vec3u) {
  out[0] = add3(1u, 2u, gid.x);
}
