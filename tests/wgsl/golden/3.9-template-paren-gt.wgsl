var<private> a: array<f32, select(1, 2, (2 > 1))>;
