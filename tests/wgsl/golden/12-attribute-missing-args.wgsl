struct S {
  @align a: i32,
}
