@group(0) @binding(0) var<storage, read_write> out: array<array<f32, 4>, 4>;

@compute @workgroup_size(1)
fn main(@builtin(global_invocation_id) gid: vec3u) {
  out[gid.x][gid.y] = 1.0;
}
