@group(0) @binding(0) var<storage, read_write> out: array<i32>;

@compute @workgroup_size(1)
fn main(@builtin(global_invocation_id) gid: vec3u) {
  let a = out[0];
  let b = out[1];
  out[2] = select(0, 1, a < b) + select(0, 2, a > b) + select(0, 4, a != b) + select(0, 8, a <= b);
}
