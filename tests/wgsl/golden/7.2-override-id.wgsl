@id(5) override enabled: bool = true;
@id(9) override gain: f32 = 2.5;
@group(0) @binding(0) var<storage, read_write> out: array<u32>;

@compute @workgroup_size(1)
fn main(@builtin(global_invocation_id) gid: vec3u) {
  out[0] = select(0u, 1u, enabled) + u32(gain);
}
