enable f16;
@group(0) @binding(0) var<storage, read_write> outf: array<f32>;

@compute @workgroup_size(1)
fn main(@builtin(global_invocation_id) gid: vec3u) {
  let x = f16(f32(gid.x) * 0.5);
  outf[gid.x] = f32(x * x - 1.0h);
}
