fn f(a: i32) -> i32 {
  switch a {
    case 1, 2, {
      return 1;
    }
    case 3: {
      return 3;
    }
    case 4, default {
      return 4;
    }
  }
}
