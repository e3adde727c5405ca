// Alias analysis: the same variable passed twice is fine when the callee only reads, or does
// not access one of the parameters at all.
var<private> x : i32;

fn both_read(pa : ptr<private, i32>, pb : ptr<private, i32>) -> i32 {
  return *pa + *pb;
}

fn one_unused(pa : ptr<private, i32>, pb : ptr<private, i32>) {
  let p = &*&*pb;
  *pa = 2;
}

fn caller() {
  _ = both_read(&x, &x);
  one_unused(&x, &x);
  var v : i32;
  let p1 = &v;
  let p2 = &v;
  *p1 = 42;
  *p2 = *p1 + 1;
}
