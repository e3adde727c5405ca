@group(0) @binding(0) var<storage, read_write> out: array<u32>;

@compute @workgroup_size(1)
fn main(@builtin(global_invocation_id) gid: vec3u) {
  let c = out[0] == 0u;
  let a = select(1u, 2u, c);
  let v = select(vec2u(1u), vec2u(2u), c);
  let w = select(vec2u(1u), vec2u(2u), vec2<bool>(c, !c));
  out[1] = a + v.x + w.y;
}
