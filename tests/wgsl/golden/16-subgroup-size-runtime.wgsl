// enable subgroup_size_control: @subgroup_size as Tint validates it (checked with tests/oracle/tint-check.mjs)
enable subgroup_size_control;
var<private> v: i32;
@compute @workgroup_size(64) @subgroup_size(v) fn main() { }
