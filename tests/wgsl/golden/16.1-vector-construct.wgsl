@group(0) @binding(0) var<storage, read_write> out: array<f32>;

@compute @workgroup_size(1)
fn main(@builtin(global_invocation_id) gid: vec3u) {
  let s = out[0];
  let a = vec4f(s);
  let b = vec4f(vec2f(s, 1.0), 2.0, 3.0);
  let c = vec3f(b.xy, s);
  out[1] = a.x + b.w + c.z;
}
