struct S {
  @size() a: i32,
}
