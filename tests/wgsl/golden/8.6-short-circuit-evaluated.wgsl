// Only the operand that is skipped escapes evaluation: here the || evaluates its rhs.
fn f() {
  _ = (false && (1 / 0 == 0)) || (2 % 0 == 0);
}
