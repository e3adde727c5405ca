@group(0) @binding(0) var<uniform> n: u32;
@group(0) @binding(1) var<storage, read> m: u32;
@compute @workgroup_size(64) fn main() {
  for (var i = 0u; i < n + m; i++) { workgroupBarrier(); }
}
