@group(0) @binding(0) var<storage, read_write> out: array<f32>;

@compute @workgroup_size(1)
fn main(@builtin(global_invocation_id) gid: vec3u) {
  let m = mat2x2f(out[0], out[1], out[2], out[3]);
  let v = vec2f(1.0, 2.0);
  let a = m * v;
  let b = v * m;
  let c = m * m;
  let d = m * 2.0;
  let e = m + m - m;
  out[4] = a.x + b.y + c[1].x + d[0].y + e[1][1];
}
