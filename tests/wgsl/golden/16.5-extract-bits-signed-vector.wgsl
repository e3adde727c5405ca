@group(0) @binding(0) var<storage, read_write> out: array<i32>;

@compute @workgroup_size(1)
fn main(@builtin(global_invocation_id) gid: vec3u) {
  let v = vec2i(out[0], out[1]);
  let r = extractBits(v, 4u, 8u);
  out[2] = r.x + r.y;
}
