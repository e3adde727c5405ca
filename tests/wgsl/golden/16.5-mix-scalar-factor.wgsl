@group(0) @binding(0) var<storage, read_write> out: array<f32>;

@compute @workgroup_size(1)
fn main(@builtin(global_invocation_id) gid: vec3u) {
  let a = vec2f(out[0], out[1]);
  out[2] = mix(a, vec2f(1.0), 0.5).y;
}
