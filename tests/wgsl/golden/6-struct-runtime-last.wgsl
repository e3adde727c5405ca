struct S { b: i32, a: array<f32> }
@group(0) @binding(0) var<storage> s: S;
