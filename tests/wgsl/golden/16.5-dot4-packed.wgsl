@group(0) @binding(0) var<storage, read_write> out: array<u32>;

@compute @workgroup_size(1)
fn main(@builtin(global_invocation_id) gid: vec3u) {
  out[2] = dot4U8Packed(out[0], out[1]) + bitcast<u32>(dot4I8Packed(out[0], out[1]));
}
