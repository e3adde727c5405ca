@group(0) @binding(0) var<storage, read_write> lock: atomic<u32>;
@group(0) @binding(1) var<storage, read_write> out: array<u32>;

@compute @workgroup_size(1)
fn main(@builtin(global_invocation_id) gid: vec3u) {
  let r = atomicCompareExchangeWeak(&lock, 0u, 1u);
  if (r.exchanged) { out[0] = r.old_value; }
}
