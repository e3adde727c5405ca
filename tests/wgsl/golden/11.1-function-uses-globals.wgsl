@group(0) @binding(0) var<storage, read_write> out: array<u32>;
var<private> bias: u32 = 5u;
fn store(i: u32) { out[i] = i + bias; }

@compute @workgroup_size(1)
fn main(@builtin(global_invocation_id) gid: vec3u) {
  store(gid.x);
}
