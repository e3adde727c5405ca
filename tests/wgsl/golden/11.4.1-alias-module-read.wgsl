// Alias analysis: a pointer to a module-scope variable that the callee writes through, while a
// function it calls reads the variable directly.
var<private> x : i32;

fn load_x() -> i32 { return x; }

fn callee(p : ptr<private, i32>) {
  *p = load_x() + 1;
}

fn caller() {
  callee(&x);
}
