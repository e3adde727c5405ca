@group(0) @binding(0) var<storage, read_write> out: array<i32>;

@compute @workgroup_size(1)
fn main(@builtin(global_invocation_id) gid: vec3u) {
  let f = bitcast<f32>(out[0]);
  out[1] = i32(f);
  out[2] = bitcast<i32>(u32(f));
}
