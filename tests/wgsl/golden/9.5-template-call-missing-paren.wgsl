fn f() {
  ar<function> c: f32 = 2.0;
}
