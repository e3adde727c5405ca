struct S {
  a: i32,
  1
}
