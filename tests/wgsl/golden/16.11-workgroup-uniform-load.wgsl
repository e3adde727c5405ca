var<workgroup> n: u32;
@group(0) @binding(0) var<storage, read_write> out: array<u32>;

@compute @workgroup_size(8)
fn main(@builtin(local_invocation_index) lid: u32) {
  if (lid == 0u) { n = 7u; }
  let v = workgroupUniformLoad(&n);
  out[lid] = v;
}
