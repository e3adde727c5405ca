var<private> x: array<f32>;
