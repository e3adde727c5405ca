// switch on i32 and u32: several selectors per clause, default in the middle and combined
// with a case, negative selectors, break inside a clause, no fall-through.
// @dispatch 1
// @bind 0:0 storage rw 512
// @expect-py 0:0 i32 [v for x in range(-8, 56) for v in ({-7: 10, -1: 10, 0: 20, 1: 30, 2: 30, 3: 30, 5: 50, 40: 60}.get(x, 40 if x != 4 else 45), 100 if x % 7 == 0 else (200 if x % 7 in (1, 2) else 300))]
@group(0) @binding(0) var<storage, read_write> r: array<vec2i, 64>;

@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) l: u32) {
  let x = i32(l) - 8;
  var a = 0;
  switch x {
    case -7, -1: { a = 10; }
    case 0 { a = 20; }
    case 1, 2, 3, { a = 30; }
    case 4, default: {
      a = 40;
      if (x == 4) { a = 45; break; }
      a = a + 0;
    }
    case 5: { a = 50; }
    case 40: { a = 60; }
  }
  var b = 0;
  switch (u32(x + 70) % 7u) {
    case 0u: { b = 100; }
    case 1u, 2u: { b = 200; }
    default: { b = 300; }
  }
  r[l] = vec2i(a, b);
}
