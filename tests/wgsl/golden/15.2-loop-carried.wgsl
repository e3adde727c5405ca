@compute @workgroup_size(64) fn main(@builtin(local_invocation_index) i: u32) {
  var y = 0u;
  loop { if (y > 3u) { break; } workgroupBarrier(); y = y + i; }
}
