// Alias analysis: pointers to different members of one struct share its root identifier,
// also through `let` pointers and pointer composite access.
struct S { a : i32, b : vec4f }

fn callee(pa : ptr<function, i32>, pb : ptr<function, vec4f>) {
  _ = *pb;
  *pa = 1;
}

fn caller() {
  var v : S;
  let q = &v;
  let r = q;
  callee(&(*q).a, &r.b);
}
