fn f(a: i32) -> i32 {
  if a < 0 {
    return -1;
  } else if (a == 0) {
    return 0;
  } else {
    return 1;
  }
}
