struct S {}
fn f( {}
