struct W { n: u32, v: array<f32, 2> }
var<workgroup> wsh: W;
@group(0) @binding(0) var<storage, read_write> out: array<u32>;

@compute @workgroup_size(4)
fn main(@builtin(local_invocation_index) lid: u32) {
  if (lid == 0u) { wsh.n = 1u; wsh.v[1] = 2.0; }
  workgroupBarrier();
  out[lid] = wsh.n;
}
