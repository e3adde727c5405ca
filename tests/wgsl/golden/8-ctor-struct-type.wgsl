struct S { a: i32, b: f32 }
fn f() { let s = S(1, true); }
