struct S {
  a:
}
