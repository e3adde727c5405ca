var<private> p: u32;
fn g() -> u32 { return p; }
@compute @workgroup_size(64) fn main() {
  if (g() == 0u) { workgroupBarrier(); }
}
