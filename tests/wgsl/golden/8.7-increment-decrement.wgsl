@group(0) @binding(0) var<storage, read_write> out: array<i32>;

@compute @workgroup_size(1)
fn main(@builtin(global_invocation_id) gid: vec3u) {
  var i = out[0];
  i++;
  i++;
  i--;
  out[1] = i;
  out[2]++;
}
