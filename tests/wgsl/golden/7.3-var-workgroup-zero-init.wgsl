var<workgroup> tile: array<u32, 64>;
@group(0) @binding(0) var<storage, read_write> out: array<u32>;

@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) lid: u32) {
  tile[lid] = lid;
  workgroupBarrier();
  out[lid] = tile[63u - lid];
}
