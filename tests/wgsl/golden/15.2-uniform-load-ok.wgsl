var<workgroup> w: u32;
@compute @workgroup_size(64) fn main() {
  let v = workgroupUniformLoad(&w);
  if (v > 0u) { workgroupBarrier(); }
}
