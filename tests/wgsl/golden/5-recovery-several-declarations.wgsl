fn f() { let x = ; }
fn g() { let y = 1 }
const c = ;
struct S { a: i32 b: f32 }
fn h() { x = 1 }
