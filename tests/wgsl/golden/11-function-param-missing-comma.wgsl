fn f(a: i32 b: i32) {}
