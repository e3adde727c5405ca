enable subgroups;
@group(0) @binding(0) var<storage, read_write> out: array<u32>;

@compute @workgroup_size(64)
fn main(@builtin(subgroup_invocation_id) sid: u32, @builtin(subgroup_size) ssz: u32) {
  out[sid] = ssz;
}
