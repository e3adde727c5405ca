enable subgroups;
@group(0) @binding(0) var<storage, read_write> outf: array<f32>;

@compute @workgroup_size(32)
fn main(@builtin(subgroup_invocation_id) sid: u32) {
  let x = outf[sid];
  outf[sid] = subgroupAdd(x) + subgroupExclusiveMul(x) + subgroupMax(x);
}
