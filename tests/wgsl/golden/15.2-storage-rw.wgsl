@group(0) @binding(0) var<storage, read_write> n: u32;
@compute @workgroup_size(64) fn main() {
  for (var i = 0u; i < n; i++) { workgroupBarrier(); }
}
