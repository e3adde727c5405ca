@compute @workgroup_size(64) fn main(@builtin(local_invocation_index) i: u32) {
  var acc = 0u;
  for (var k = 0u; k < 4u; k++) { acc += i; workgroupBarrier(); }
}
