// break and continue inside switch inside loops: in WGSL `break` in a switch leaves the switch,
// `continue` in a switch continues the enclosing loop; loop-carried values across a continuing
// block that uses a body variable.
// @dispatch 1
// @bind 0:0 storage rw 128
// @let-py F = lambda n: (lambda out: out)([sum(k if k % 3 == 0 else (2 * k if k % 3 == 1 else 0) for k in range(n) if k % 5 != 4)])
// @expect-py 0:0 u32 [F(n)[0] for n in range(32)]
@group(0) @binding(0) var<storage, read_write> r: array<u32, 32>;

@compute @workgroup_size(32)
fn main(@builtin(local_invocation_index) n: u32) {
  var acc = 0u;
  var k = 0u;
  loop {
    if (k >= n) { break; }
    let here = k;
    if (k % 5u == 4u) { continue; }
    switch (k % 3u) {
      case 0u: { acc += k; }
      case 1u: { acc += 2u * k; break; }
      default: { continue; }
    }
    continuing {
      k = here + 1u;
    }
  }
  r[n] = acc;
}
