// Evaluation order and single evaluation: call arguments left to right, the index of a compound
// assignment or increment evaluated once, operands of binary operators left to right.
// @dispatch 1
// @bind 0:0 storage rw 64
// @expect 0:0 u32 123,1,1,3,1,0,0,0,21,0,0,0,0,0,0,0
var<private> log: u32;
var<private> calls: u32;
@group(0) @binding(0) var<storage, read_write> r: array<u32, 16>;

fn h(d: u32) -> u32 { log = log * 10u + d; return d; }
fn g(a: u32, b: u32, c: u32) -> u32 { return a + b + c; }
fn next() -> u32 { calls += 1u; return calls; }

@compute @workgroup_size(1)
fn main() {
  log = 0u;
  _ = g(h(1u), h(2u), h(3u));
  r[0] = log;
  calls = 0u;
  r[next()] += 1u;          // index 1, evaluated once
  r[next()]++;              // index 2
  r[next()] += 3u;          // index 3
  r[4] = calls - 2u;        // 3 calls so far -> 1
  log = 0u;
  let s = h(2u) - h(1u);    // left operand first: log = 21
  r[8] = log + s * 0u;
}
