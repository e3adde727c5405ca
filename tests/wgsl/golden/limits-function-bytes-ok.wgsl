// Exactly 8192 bytes of function memory in each of two functions: the limit is per function.
fn g(i: u32) -> f32 {
  var a: array<f32, 2044>;
  let b = array<u32, 4>(i, 1u, 2u, 3u);
  a[b[0]] = 1.0;
  return a[b[i]];
}
@compute @workgroup_size(1) fn main() {
  var x: array<vec4f, 511>;
  var y: vec4f;
  x[0] = y;
  _ = g(2u);
}
