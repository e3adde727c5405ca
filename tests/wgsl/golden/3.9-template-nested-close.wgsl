var<private> a: array<vec3<f32>, 2>;
var<private> b: array<array<f32, 2>, 2>;
