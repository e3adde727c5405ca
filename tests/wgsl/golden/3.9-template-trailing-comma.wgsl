var<private> a: array<f32, 4,>;
var<private,> b: i32;
