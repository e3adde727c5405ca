fn set(p: ptr<function, u32>, v: u32) { *p = v; }
@compute @workgroup_size(64) fn main(@builtin(workgroup_id) w: vec3u) {
  var x = 0u;
  set(&x, w.x);
  if (x == 0u) { workgroupBarrier(); }
}
