struct S { a: f32, m: mat2x3f }
@group(0) @binding(0) var<storage, read_write> buf: S;

@compute @workgroup_size(1)
fn main(@builtin(global_invocation_id) gid: vec3u) {
  buf.a = transpose(buf.m)[2].y + buf.m[1].y;
}
