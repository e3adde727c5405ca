fn f(a: array<f32 @>) {}
