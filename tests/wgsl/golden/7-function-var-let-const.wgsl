fn f() {
  var a: i32;
  var b = 1;
  var<function> c: f32 = 2.0;
  let d = a + b;
  let e: f32 = c;
  const g = 3;
  _ = d;
  _ = e;
  _ = g;
}
