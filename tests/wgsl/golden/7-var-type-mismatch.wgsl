fn f() { var x: i32 = 1u; }
