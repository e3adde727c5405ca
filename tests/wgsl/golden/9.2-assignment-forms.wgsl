struct S {
  a: array<i32, 2>,
}
fn f() {
  var s: S;
  var v = vec2<i32>();
  let p = &s;
  s.a[0] = 1;
  v.x = 2;
  (*p).a[1] = 3;
  *&v = vec2(4);
  (v) = v;
}
