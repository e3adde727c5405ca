fn f() -> i32 { return K + g(); }
fn g() -> i32 { return 2; }
const K = 1;
