@group(0) @binding(0) var<storage, read_write> out: array<f32>;

@compute @workgroup_size(1)
fn main(@builtin(global_invocation_id) gid: vec3u) {
  let i = i32(out[0]);
  let u = u32(out[1]);
  out[2] = f32(i) + f32(u);
}
