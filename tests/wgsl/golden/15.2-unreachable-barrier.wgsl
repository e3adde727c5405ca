// An unreachable barrier is not reported; the reachable one after a non-uniform return is.
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) i : u32) {
  if (i == 0u) {
    return;
    workgroupBarrier();
  }
  workgroupBarrier();
}
