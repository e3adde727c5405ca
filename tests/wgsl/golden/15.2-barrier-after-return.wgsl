@group(0) @binding(0) var<storage, read_write> s: array<u32>;
@compute @workgroup_size(64) fn main(@builtin(global_invocation_id) g: vec3u) {
  if (g.x >= arrayLength(&s)) { return; }
  workgroupBarrier();
}
