override wgx: u32 = 16u;
@group(0) @binding(0) var<storage, read_write> out: array<u32>;

@compute @workgroup_size(wgx, 2)
fn main(@builtin(local_invocation_index) lid: u32) {
  out[lid] = lid;
}
