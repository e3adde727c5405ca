@group(0) @binding(0) var<storage, read_write> out: array<f32>;

@compute @workgroup_size(1)
fn main(@builtin(global_invocation_id) gid: vec3u) {
  let f = frexp(out[0]);
  let m = modf(out[1]);
  out[2] = f.fract + f32(f.exp) + m.fract + m.whole;
}
