var<workgroup> a: atomic<u32>;
@group(0) @binding(0) var<storage, read_write> out: array<u32>;

@compute @workgroup_size(8)
fn main(@builtin(local_invocation_index) lid: u32) {
  atomicStore(&a, 3u);
  let v = workgroupUniformLoad(&a);
  out[lid] = v;
}
