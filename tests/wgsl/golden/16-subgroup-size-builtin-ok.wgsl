// enable subgroup_size_control: @subgroup_size as Tint validates it (checked with tests/oracle/tint-check.mjs)
enable subgroup_size_control;
const k = 8u;
@compute @workgroup_size(64) @subgroup_size(k * 2) fn main(@builtin(subgroup_size) s: u32) { }
