// Arrays and structs are values: a function parameter, a let, and a var copy are independent of
// the original; modifying a copy never changes the source; functions return arrays and structs.
// @dispatch 1
// @bind 0:0 storage rw 64
// @expect 0:0 u32 1,2,3,4,99,2,3,4,1,2,3,4,1,77,3,4
struct P { a: array<u32, 4> }
@group(0) @binding(0) var<storage, read_write> r: array<array<u32, 4>, 4>;

fn poke(x: array<u32, 4>) -> array<u32, 4> {
  var y = x;
  y[0] = 99u;
  return y;
}
fn make() -> P { return P(array<u32, 4>(1u, 2u, 3u, 4u)); }

@compute @workgroup_size(1)
fn main() {
  var p = make();
  let q = p;           // a value snapshot
  var s = p;           // an independent copy
  s.a[1] = 77u;
  let t = poke(p.a);
  r[0] = p.a;
  r[1] = t;
  r[2] = q.a;
  r[3] = s.a;
}
