// A helper's return value derived from subgroup_id stays subgroup uniform at the call site.
enable subgroups;
@group(0) @binding(0) var<storage, read_write> s : array<u32>;
fn lane0(sid : u32) -> u32 { return sid * 2u; }
fn add(x : u32) -> u32 { if x == 0u { return subgroupAdd(1u); } return 0u; }
@compute @workgroup_size(128) fn main(@builtin(subgroup_id) sid : u32) {
  let t = lane0(sid);
  if t == 2u { s[0] = subgroupAdd(1u); }
  s[1] = add(t);
}
