fn sum(a: array<u32, 3>) -> u32 {
  var s = 0u;
  for (var i = 0u; i < 3u; i++) { s += a[i]; }
  return s;
}
@group(0) @binding(0) var<storage, read_write> out: array<u32>;

@compute @workgroup_size(1)
fn main(@builtin(global_invocation_id) gid: vec3u) {
  out[0] = sum(array<u32, 3>(1u, 2u, 3u));
}
