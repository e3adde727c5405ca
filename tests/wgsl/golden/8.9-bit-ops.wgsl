@group(0) @binding(0) var<storage, read_write> out: array<u32>;

@compute @workgroup_size(1)
fn main(@builtin(global_invocation_id) gid: vec3u) {
  let a = out[0];
  let b = out[1];
  out[2] = (a & b) | (a ^ b) | ~a;
}
