// A let array counts against the function's memory limit (8192 bytes, WGSL's minimum limit):
// indexed at runtime it is a Function variable in SPIR-V.  Dawn refuses this pipeline too
// ("let: result type size (260000) exceeds maximum allowed (65536)"); Tint's module check does not.
fn f(i: i32) -> i32 {
  let a = array<array<i32, 100>, 650>();
  return a[i][i];
}
@compute @workgroup_size(1) fn main() { _ = f(1); }
