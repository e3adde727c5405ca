var<workgroup> total: u32;
@group(0) @binding(0) var<storage, read_write> out: array<u32>;

@compute @workgroup_size(8)
fn main(@builtin(local_invocation_index) lid: u32) {
  if (lid == 0u) { total = 5u; }
  workgroupBarrier();
  out[lid] = total;
}
