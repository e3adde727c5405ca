@group(0) @binding(0) var<storage, read_write> m: mat3x2f;

@compute @workgroup_size(1)
fn main(@builtin(global_invocation_id) gid: vec3u) {
  m[0] = vec2f(1.0, 2.0);
  m[2].y = 3.0;
}
