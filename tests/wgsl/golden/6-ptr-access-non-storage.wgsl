fn f(p: ptr<function, i32, read>) {}
