@group(0) @binding(0) var<storage, read_write> s: array<u32>;
fn f() -> bool { workgroupBarrier(); return true; }
@compute @workgroup_size(64) fn main(@builtin(local_invocation_index) i: u32) {
  let b = (i == 0u) && f();
}
