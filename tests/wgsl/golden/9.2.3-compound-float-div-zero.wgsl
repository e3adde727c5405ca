// Division of a float by a constant zero is not a const-evaluation error at runtime.
fn f() {
  var v : f32 = 1.0;
  v /= 0.0;
  v %= 0.0;
}
