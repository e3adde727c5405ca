struct S { a: array<f32>, b: i32 }
