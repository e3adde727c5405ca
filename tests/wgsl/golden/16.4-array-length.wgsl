struct B { n: u32, items: array<vec2f> }
@group(0) @binding(0) var<storage, read_write> out: array<u32>;
@group(0) @binding(1) var<storage, read> buf: B;

@compute @workgroup_size(1)
fn main(@builtin(global_invocation_id) gid: vec3u) {
  out[0] = arrayLength(&out) + arrayLength(&buf.items);
}
