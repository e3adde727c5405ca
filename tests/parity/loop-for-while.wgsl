// for and while loops with break and continue, nested, counting down with i32, and a for loop
// whose body never runs.
// @dispatch 1
// @bind 0:0 storage rw 512
// @expect-py 0:0 i32 [v for n in range(32) for v in (sum(i * j for i in range(n) for j in range(i) if (i + j) % 4 != 1), len([x for x in range(n, -5, -3)]), (lambda m: next(k for k in range(10**6) if k * k >= m))(n * 7), 0)]
@group(0) @binding(0) var<storage, read_write> r: array<vec4i, 32>;

@compute @workgroup_size(32)
fn main(@builtin(local_invocation_index) l: u32) {
  let n = i32(l);
  var s = 0;
  for (var i = 0; i < n; i++) {
    for (var j = 0; j < i; j++) {
      if ((i + j) % 4 == 1) { continue; }
      s += i * j;
    }
  }
  var c = 0;
  for (var x = n; x > -5; x -= 3) { c++; }
  var k = 0;
  while (true) {
    if (k * k >= n * 7) { break; }
    k++;
  }
  var z = 0;
  for (var q = 0; q < 0; q++) { z = 99; }
  r[l] = vec4i(s, c, k, z);
}
