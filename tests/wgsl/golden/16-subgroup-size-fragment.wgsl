// enable subgroup_size_control: @subgroup_size as Tint validates it (checked with tests/oracle/tint-check.mjs)
enable subgroup_size_control;
@fragment @subgroup_size(16) fn main() { }
