struct S { a: u32, b: vec3f, c: f32, d: array<vec2f, 3>, m: mat3x3f }
@group(0) @binding(0) var<storage, read_write> buf: S;

@compute @workgroup_size(1)
fn main(@builtin(global_invocation_id) gid: vec3u) {
  buf.b = vec3f(1.0, 2.0, 3.0);
  buf.c = 4.0;
  buf.d[1] = vec2f(5.0);
}
