@group(0) @binding(0) var<storage, read_write> out: array<u32>;

@compute @workgroup_size(1)
fn main(@builtin(global_invocation_id) gid: vec3u) {
  var a = array<u32, 4>();
  let p = &a;
  p[1] = 5u;
  (*p)[2] = 6u;
  out[0] = p[1] + a[2];
}
