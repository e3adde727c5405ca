enable subgroups;
@group(0) @binding(0) var<storage, read_write> out: array<u32>;

@compute @workgroup_size(32)
fn main(@builtin(subgroup_invocation_id) sid: u32) {
  let b = out[sid] > 3u;
  let bal = subgroupBallot(b);
  out[sid] = select(0u, 1u, subgroupAll(b)) + select(0u, 2u, subgroupAny(b)) + bal.x + select(0u, 4u, subgroupElect());
}
