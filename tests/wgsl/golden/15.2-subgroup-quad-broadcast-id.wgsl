enable subgroups;
@group(0) @binding(0) var<storage, read_write> o: array<f32>;
@compute @workgroup_size(32) fn main(@builtin(local_invocation_index) i: u32) {
  o[i] = quadBroadcast(o[i], 4u);
}
