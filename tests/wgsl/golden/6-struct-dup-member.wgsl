struct S { a: i32, a: f32 }
