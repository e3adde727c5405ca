// arrayLength through a pointer parameter and a let-bound pointer; a helper summing a runtime
// array it receives by pointer; early return from inside a loop in a helper.
// @dispatch 1
// @bind 0:0 storage read 40 init=ramp:u32:1
// @bind 0:1 storage rw 16
// @expect 0:1 u32 10,55,7,100
@group(0) @binding(0) var<storage, read> a: array<u32>;
@group(0) @binding(1) var<storage, read_write> r: array<u32, 4>;

fn len(p: ptr<storage, array<u32>, read>) -> u32 { return arrayLength(p); }
fn total(p: ptr<storage, array<u32>, read>) -> u32 {
  var s = 0u;
  for (var i = 0u; i < arrayLength(p); i++) { s += p[i]; }
  return s;
}
fn find(x: u32) -> u32 {
  for (var i = 0u; i < 10u; i++) {
    if (a[i] == x) { return i; }
  }
  return 100u;
}

@compute @workgroup_size(1)
fn main() {
  let p = &a;
  r[0] = len(p);
  r[1] = total(&a);
  r[2] = find(8u);
  r[3] = find(11u);
}
