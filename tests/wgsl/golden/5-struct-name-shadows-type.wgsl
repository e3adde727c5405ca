struct f32 { a: i32 }
fn f() { let x = f32(1); }
