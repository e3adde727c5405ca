var<workgroup> v: i32;
fn g(p: ptr<workgroup, i32>) { *p = 1; }
fn f() { g(&v); }
