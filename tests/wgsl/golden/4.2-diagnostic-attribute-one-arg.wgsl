@diagnostic(off)
fn f() {}
