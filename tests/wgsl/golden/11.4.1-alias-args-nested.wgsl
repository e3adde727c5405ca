// Alias analysis: what a callee does with a pointer parameter includes what the functions it
// passes the pointer to do (here a write two calls down).
var<workgroup> x : array<i32, 4>;

fn write(p : ptr<workgroup, i32>) { *p = 2; }
fn forward(p : ptr<workgroup, array<i32, 4>>) { write(&(*p)[1]); }

fn callee(pa : ptr<workgroup, array<i32, 4>>, pb : ptr<workgroup, array<i32, 4>>) -> i32 {
  forward(pb);
  return pa[0];
}

@compute @workgroup_size(1)
fn main() {
  _ = callee(&x, &x);
}
