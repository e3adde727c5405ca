// i32 / and % over random operands: truncating division, remainder takes the dividend's sign
// (WGSL: e1 % e2 = e1 - trunc(e1 / e2) * e2).  Divisors are random too, so a zero or -1 may
// appear; the expectation follows the spec's rules for those as well.
// @dispatch 4
// @bind 0:0 storage read 1024 init=rand:i32:11
// @bind 0:1 storage read 1024 init=rand:i32:12
// @bind 0:2 storage rw 1024
// @bind 0:3 storage rw 1024
// @expect-py 0:2 i32 [a if b == 0 else (a if (a == -2**31 and b == -1) else int(abs(a) // abs(b)) * (1 if (a < 0) == (b < 0) else -1)) for a, b in zip(inp(0,0,'i32'), [x >> (x & 31 if x & 1 else 0) for x in inp(0,1,'i32')])]
// @expect-py 0:3 i32 [0 if b == 0 or (a == -2**31 and b == -1) else (abs(a) % abs(b)) * (1 if a >= 0 else -1) for a, b in zip(inp(0,0,'i32'), [x >> (x & 31 if x & 1 else 0) for x in inp(0,1,'i32')])]
@group(0) @binding(0) var<storage, read> a: array<i32>;
@group(0) @binding(1) var<storage, read> b: array<i32>;
@group(0) @binding(2) var<storage, read_write> q: array<i32>;
@group(0) @binding(3) var<storage, read_write> r: array<i32>;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) g: vec3u) {
  let i = g.x;
  var d = b[i];
  // Odd words are shifted right by their low bits so small divisors (and 0, -1) occur too.
  if ((d & 1) != 0) { d = d >> u32(d & 31); }
  q[i] = a[i] / d;
  r[i] = a[i] % d;
}
