fn helper(x: u32) {
  if (x > 0u) { workgroupBarrier(); }
}
@compute @workgroup_size(64) fn main(@builtin(workgroup_id) w: vec3u) {
  helper(w.x);
}
