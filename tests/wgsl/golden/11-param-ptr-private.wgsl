var<private> v: i32;
fn g(p: ptr<private, i32>) { *p = 1; }
fn f() { g(&v); }
