fn f() { var a: atomic<i32>; }
