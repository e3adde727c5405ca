struct S { @align(16) a: i32, @size(32) b: vec3<f32> }
@group(0) @binding(0) var<uniform> s: S;
