var<workgroup> hits: atomic<u32>;
@group(0) @binding(0) var<storage, read_write> out: array<u32>;

@compute @workgroup_size(32)
fn main(@builtin(local_invocation_index) lid: u32) {
  atomicAdd(&hits, 1u);
  workgroupBarrier();
  if (lid == 0u) { out[0] = atomicLoad(&hits); }
}
