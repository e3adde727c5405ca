enable f16;
@group(0) @binding(0) var<storage, read_write> out: array<u32>;

@compute @workgroup_size(1)
fn main(@builtin(global_invocation_id) gid: vec3u) {
  let h = vec2h(vec2f(f32(out[0]), 1.5));
  out[1] = u32(f32(h.x + h.y));
}
