// An override lhs is not a const-expression: the rhs is evaluated.
override o : bool;

fn f() {
  _ = o && (1 / 0 == 0);
}
