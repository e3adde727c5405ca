struct S {
  a: i32
  b: i32
}
