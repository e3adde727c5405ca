const x = 1;
fn f() { let x = 2u; { let x = 3.0; } }
