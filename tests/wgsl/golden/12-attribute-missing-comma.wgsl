struct S {
  @align(4 8) a: i32,
}
