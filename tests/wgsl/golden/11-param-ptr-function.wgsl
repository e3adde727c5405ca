fn g(p: ptr<function, i32>) { *p = 1; }
fn f() { var x = 1; g(&x); }
