fn f() -> bool {
  let a = vec2<i32>(1)>=vec2(0);
  return all(a);
}
