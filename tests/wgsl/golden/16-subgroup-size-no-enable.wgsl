// enable subgroup_size_control: @subgroup_size as Tint validates it (checked with tests/oracle/tint-check.mjs)
@compute @workgroup_size(64) @subgroup_size(32) fn main() { }
