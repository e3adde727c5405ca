enable f16;
@group(0) @binding(0) var<storage, read_write> outh: array<vec2h>;

@compute @workgroup_size(1)
fn main(@builtin(global_invocation_id) gid: vec3u) {
  outh[gid.x] = outh[gid.x] * 2.0h + vec2h(1.0h);
}
