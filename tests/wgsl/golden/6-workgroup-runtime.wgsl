var<workgroup> x: array<f32>;
