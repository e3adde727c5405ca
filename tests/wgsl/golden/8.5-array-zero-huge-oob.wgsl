// Bounds of an unbuilt zero array: its last element is 0, one past it is an error.
const_assert array<i32, 636109182>()[636109181] == 0;
fn f() -> i32 { return array<i32, 636109182>()[636109182]; }
