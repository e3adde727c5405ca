// && and || evaluate their right operand only when needed (side effects through a private
// counter and a storage write), while & and | on bool evaluate both.
// @dispatch 1
// @bind 0:0 storage rw 256
// @expect-py 0:0 u32 [v for x in range(16) for v in (int((x & 1) == 1 and (x & 2) == 2), int((x & 1) == 1 or (x & 4) == 4), (2 if x & 1 else 1) * 10 + (1 if x & 1 else 2), 2)]
var<private> calls: u32;
@group(0) @binding(0) var<storage, read_write> r: array<vec4u, 16>;

fn bit(x: u32, m: u32) -> bool {
  calls += 1u;
  return (x & m) != 0u;
}

@compute @workgroup_size(16)
fn main(@builtin(local_invocation_index) x: u32) {
  calls = 0u;
  let a = bit(x, 1u) && bit(x, 2u);
  let c1 = calls;
  calls = 0u;
  let b = bit(x, 1u) || bit(x, 4u);
  let c2 = calls;
  calls = 0u;
  let c = bit(x, 1u) & bit(x, 2u);
  _ = c;
  r[x] = vec4u(u32(a), u32(b), c1 * 10u + c2, calls);
}
