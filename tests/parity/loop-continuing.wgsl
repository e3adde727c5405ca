// loop with continuing and break if, continue inside the body (the continuing block still
// runs), and nested loops with labelled-style early exits through flags.
// @dispatch 1
// @bind 0:0 storage rw 256
// @expect-py 0:0 u32 [v for n in range(32) for v in (sum(k for k in range(n + 1) if k % 3 != 0), n + 1)]
@group(0) @binding(0) var<storage, read_write> r: array<vec2u, 32>;

@compute @workgroup_size(32)
fn main(@builtin(local_invocation_index) n: u32) {
  var k = 0u;
  var acc = 0u;
  var trips = 0u;
  loop {
    trips += 1u;
    if (k % 3u == 0u) { continue; }
    acc += k;
    continuing {
      k += 1u;
      break if k > n;
    }
  }
  r[n] = vec2u(acc, trips);
}
