// A zero value of a 636M-element array, indexed: never built element by element (issue 21).
// The runtime arrays stay small: function memory is limited (limits-function-bytes*).
fn f(i: i32) -> i32 {
  let a = array<array<i32, 10>, 16>();
  const c = array<array<u32, 636109182>, 1>()[0][636109181];
  var v = array<f32, 100>();
  v[i] = 1.0;
  return a[i][i] + i32(c) + i32(v[i]) + array<i32, 636109182>()[0];
}
@compute @workgroup_size(1) fn main() { _ = f(1); }
