@compute @workgroup_size(64) fn main(@builtin(local_invocation_index) i: u32) {
  switch (i) { case 0u: { workgroupBarrier(); } default: {} }
}
