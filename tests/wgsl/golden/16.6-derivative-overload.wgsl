fn f(x : i32) -> i32 { return dpdx(x); }
