var<workgroup> x: atomic<f32>;
