@compute @workgroup_size(64) fn main(@builtin(local_invocation_index) i: u32) {
  var x = i;
  x = 0u;
  if (x == 0u) { workgroupBarrier(); }
}
