struct In { @builtin(local_invocation_index) i: u32 }
@compute @workgroup_size(64) fn main(inp: In) {
  if (inp.i == 0u) { workgroupBarrier(); }
}
