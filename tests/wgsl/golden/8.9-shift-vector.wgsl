@group(0) @binding(0) var<storage, read_write> out: array<u32>;

@compute @workgroup_size(1)
fn main(@builtin(global_invocation_id) gid: vec3u) {
  let v = vec2u(out[0], out[1]);
  let r = v << vec2u(out[0], 33u);
  out[2] = r.x + r.y;
}
