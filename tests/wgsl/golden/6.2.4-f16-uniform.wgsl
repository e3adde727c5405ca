enable f16;
struct U { a: f16, b: vec2h }
@group(0) @binding(0) var<uniform> u: U;
@group(0) @binding(1) var<storage, read_write> outf: array<f32>;

@compute @workgroup_size(1)
fn main(@builtin(global_invocation_id) gid: vec3u) {
  outf[0] = f32(u.a) + f32(u.b.y);
}
