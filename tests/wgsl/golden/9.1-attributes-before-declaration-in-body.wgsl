fn f() {
  let x = 1;
@compute @workgroup_size(1)
fn main() {}
