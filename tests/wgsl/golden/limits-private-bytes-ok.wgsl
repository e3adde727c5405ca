// Only statically used private variables count, per entry point: each uses 8192 bytes.
var<private> a: array<f32, 2048>;
var<private> b: array<vec4f, 512>;
var<private> big: array<f32, 60000>;
@compute @workgroup_size(1) fn one() { a[1] = 2.0; }
@compute @workgroup_size(1) fn two() { b[1] = vec4f(2.0); }
