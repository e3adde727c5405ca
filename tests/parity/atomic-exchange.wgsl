// atomicExchange from 256 invocations: the returned old values plus the final value are
// exactly the initial value plus every value written (a permutation), whatever the order.
// @dispatch 4
// @bind 0:0 storage rw 4 init=vals:u32:777
// @bind 0:1 storage rw 1024
// @assert-py sorted(out(0,1) + out(0,0)) == sorted([777] + [1000 + k for k in range(256)])
// @compare 0:0 ignore
// @compare 0:1 ignore
@group(0) @binding(0) var<storage, read_write> x: atomic<u32>;
@group(0) @binding(1) var<storage, read_write> olds: array<u32, 256>;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) g: vec3u) {
  olds[g.x] = atomicExchange(&x, 1000u + g.x);
}
