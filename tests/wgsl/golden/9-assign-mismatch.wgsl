fn f() { var x: i32; x = 1u; }
