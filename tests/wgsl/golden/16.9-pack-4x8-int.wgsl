@group(0) @binding(0) var<storage, read_write> out: array<u32>;

@compute @workgroup_size(1)
fn main(@builtin(global_invocation_id) gid: vec3u) {
  out[0] = pack4xI8(vec4i(-1, 2, -3, 4)) + pack4xU8(vec4u(1u, 2u, 3u, 4u)) + pack4xI8Clamp(vec4i(-200, 200, 0, 1)) + pack4xU8Clamp(vec4u(300u, 1u, 2u, 3u));
  let a = unpack4xI8(out[1]);
  let b = unpack4xU8(out[1]);
  out[2] = u32(a.x) + b.w;
}
