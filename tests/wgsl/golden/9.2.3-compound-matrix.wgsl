// Compound assignment with a matrix right-hand side: vecR *= matCxR when C == R, and
// matKxR *= matCxK when the product keeps the lhs type.
@group(0) @binding(0) var<storage, read_write> o : array<vec3f, 2>;

@compute @workgroup_size(1)
fn main() {
  var v = vec3f(1.0, 2.0, 3.0);
  v *= mat3x3f(1, 2, 3, 4, 5, 6, 7, 8, 9);
  var g = mat3x2f(1, 2, 3, 4, 5, 6);
  g *= mat3x3f(1, 0, 0, 0, 2, 0, 0, 0, 3);
  o[0] = v;
  o[1] = vec3f(g[2], g[0].x);
}
