const A = array(1, 2, 3);
fn f(i: i32) -> i32 { return A[i] + A[1]; }
