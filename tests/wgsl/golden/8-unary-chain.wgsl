fn f(a: i32, b: bool) -> i32 {
  let c = !!b;
  _ = c;
  return - -~a;
}
