@group(0) @binding(0) var<storage, read_write> out: array<u32>;

@compute @workgroup_size(1)
fn main(@builtin(global_invocation_id) gid: vec3u) {
  let f = bitcast<f32>(out[0]);
  let i = bitcast<i32>(f);
  let v = bitcast<vec2u>(vec2f(f, 1.0));
  out[1] = bitcast<u32>(i) + v.y;
}
