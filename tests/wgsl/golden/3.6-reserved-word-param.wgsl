fn f(mut: i32) {}
