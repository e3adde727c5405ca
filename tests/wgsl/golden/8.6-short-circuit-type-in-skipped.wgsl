// Type expressions inside a skipped operand are still evaluated.
fn f() {
  _ = false && (array<i32, 2 / 0>()[0] == 0);
}
