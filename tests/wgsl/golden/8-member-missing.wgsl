struct S { a: i32 }
fn f() { var s: S; s.c = 1; }
