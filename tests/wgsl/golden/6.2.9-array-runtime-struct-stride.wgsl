struct E { a: f32, b: vec3f }
@group(0) @binding(0) var<storage, read_write> out: array<E>;

@compute @workgroup_size(1)
fn main(@builtin(global_invocation_id) gid: vec3u) {
  out[gid.x].a = 1.0;
  out[gid.x].b = vec3f(2.0);
}
