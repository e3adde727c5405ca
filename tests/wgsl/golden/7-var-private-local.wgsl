fn f() { var<private> x: i32; }
