struct S { @size(16) x: u32, @align(32) y: u32 }
@group(0) @binding(0) var<storage, read_write> buf: S;

@compute @workgroup_size(1)
fn main(@builtin(global_invocation_id) gid: vec3u) {
  buf.y = buf.x + 1;
}
