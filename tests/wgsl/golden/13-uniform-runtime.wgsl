@group(0) @binding(0) var<uniform> u: array<vec4<f32>>;
