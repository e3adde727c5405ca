// atomicAdd from 1024 invocations in 16 workgroups: the final counter and sum are fixed, and
// the old values returned form exactly the set 0..1023 (each invocation saw a distinct one).
// @dispatch 16
// @bind 0:0 storage rw 8
// @bind 0:1 storage rw 4096
// @expect 0:0 u32 1024,523776
// @assert-py sorted(out(0,1)) == list(range(1024))
// @compare 0:1 ignore
struct Counters {
  count: atomic<u32>,
  sum: atomic<u32>,
}
@group(0) @binding(0) var<storage, read_write> c: Counters;
@group(0) @binding(1) var<storage, read_write> olds: array<u32, 1024>;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) g: vec3u) {
  olds[g.x] = atomicAdd(&c.count, 1u);
  atomicAdd(&c.sum, g.x);
}
