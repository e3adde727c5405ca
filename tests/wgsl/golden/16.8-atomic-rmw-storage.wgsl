@group(0) @binding(0) var<storage, read_write> counters: array<atomic<u32>, 4>;

@compute @workgroup_size(1)
fn main(@builtin(global_invocation_id) gid: vec3u) {
  let i = gid.x % 4u;
  atomicAdd(&counters[i], 1u);
  atomicSub(&counters[i], 1u);
  atomicMax(&counters[i], gid.x);
  atomicMin(&counters[i], gid.x);
  atomicAnd(&counters[i], 7u);
  atomicOr(&counters[i], 8u);
  atomicXor(&counters[i], 1u);
  let old = atomicExchange(&counters[i], 3u);
  atomicStore(&counters[0], old + atomicLoad(&counters[1]));
}
