@group(0) @binding(0) var<storage, read_write> out: array<i32>;

@compute @workgroup_size(1)
fn main(@builtin(global_invocation_id) gid: vec3u) {
  let a = vec2i(out[0], out[1]);
  let b = vec2i(out[2], out[3]);
  let q = a / b;
  out[4] = q.x + q.y;
}
