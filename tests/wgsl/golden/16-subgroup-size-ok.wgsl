// enable subgroup_size_control: @subgroup_size as Tint validates it (checked with tests/oracle/tint-check.mjs)
enable subgroup_size_control;
@compute @workgroup_size(64) @subgroup_size(1) fn main() { }
@compute @workgroup_size(64) @subgroup_size(256) fn m2() { }
@compute @workgroup_size(64) @subgroup_size(1024) fn m3() { }
