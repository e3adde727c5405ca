@group(0) @binding(0) var<storage, read_write> out: array<i32>;

@compute @workgroup_size(1)
fn main(@builtin(global_invocation_id) gid: vec3u) {
  let a = out[0];
  let s = u32(out[1]);
  out[2] = (a << s) + (a >> s);
}
