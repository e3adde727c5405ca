enable subgroups;
@group(0) @binding(0) var<storage, read_write> out: array<u32>;

@compute @workgroup_size(32)
fn main(@builtin(subgroup_invocation_id) sid: u32) {
  let x = out[sid];
  out[sid] = subgroupAdd(x) + subgroupInclusiveAdd(x) + subgroupExclusiveAdd(x) + subgroupMul(x) + subgroupMin(x) + subgroupMax(x);
}
