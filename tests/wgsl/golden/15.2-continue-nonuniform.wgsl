@compute @workgroup_size(64) fn main(@builtin(local_invocation_index) i: u32) {
  for (var k = 0u; k < 4u; k++) { if (i == k) { continue; } workgroupBarrier(); }
}
