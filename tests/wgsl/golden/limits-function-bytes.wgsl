// Function-scope var and let declarations add up: the first one past 8192 bytes is the error.
@group(0) @binding(0) var<storage, read_write> o: array<f32>;
@compute @workgroup_size(1) fn main() {
  var a: array<f32, 2040>;
  let i = u32(o[0]);
  var b: vec4f;
  let c = array<f32, 5>();
  a[i] = b.x + c[i];
  o[1] = a[i + 1u];
}
