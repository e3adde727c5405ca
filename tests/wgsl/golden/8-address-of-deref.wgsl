fn f() -> i32 {
  var a = 1;
  let p = &a;
  let q = &*p;
  return *q + *&a;
}
