@must_use() fn f() -> i32 {
  return 1;
}
