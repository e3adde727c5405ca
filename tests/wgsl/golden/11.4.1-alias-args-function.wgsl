// Alias analysis: two pointer arguments with the same root identifier (a function-scope
// variable), where the callee writes through one of them.
fn callee(pa : ptr<function, i32>, pb : ptr<function, i32>) {
  *pa = 1;
  _ = *pb;
}

fn caller() {
  var x : i32;
  var y : i32;
  callee(&x, &y);
  callee(&x, &x);
}
