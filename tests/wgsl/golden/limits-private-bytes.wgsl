// The private variables an entry point uses, through its callees too, add up to at most 8192
// bytes (WGSL's minimum limit); the variable that passes it is the error.
var<private> a: array<f32, 1024>;
var<private> unused: array<f32, 4096>;
var<private> b: array<vec4f, 257>;
fn g(i: u32) -> f32 { return b[i].x; }
@compute @workgroup_size(1) fn main() {
  a[1] = g(2u);
}
