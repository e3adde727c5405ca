// the same filter twice on one statement is a duplicate attribute, even with the same severity
fn f() {
  loop @diagnostic(off, derivative_uniformity) @diagnostic(off, derivative_uniformity) { break; }
}
