@group(0) @binding(0) var<storage, read_write> out: array<f32>;

@compute @workgroup_size(1)
fn main(@builtin(global_invocation_id) gid: vec3u) {
  let s = out[0];
  let a = mat2x2f(s, 1.0, 2.0, 3.0);
  let b = mat2x2f(vec2f(s), vec2f(1.0));
  let c = mat2x2f();
  out[1] = a[1].x + b[0].y + c[0].x;
}
