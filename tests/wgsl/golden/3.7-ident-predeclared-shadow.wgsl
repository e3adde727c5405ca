const i32 = 1;
fn f() {
  let vec3 = 2;
}
