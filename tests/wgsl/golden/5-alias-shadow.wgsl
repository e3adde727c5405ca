alias T = i32;
fn f() { let T = 1; }
