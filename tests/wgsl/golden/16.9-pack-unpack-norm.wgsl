@group(0) @binding(0) var<storage, read_write> out: array<u32>;

@compute @workgroup_size(1)
fn main(@builtin(global_invocation_id) gid: vec3u) {
  let v = vec4f(0.5, -0.5, 1.0, 0.0);
  out[0] = pack4x8snorm(v) + pack4x8unorm(v) + pack2x16snorm(v.xy) + pack2x16unorm(v.zw) + pack2x16float(v.xy);
  let u = unpack4x8snorm(out[1]) + unpack4x8unorm(out[1]);
  let w = unpack2x16snorm(out[1]) + unpack2x16unorm(out[1]) + unpack2x16float(out[1]);
  out[2] = u32(u.x + w.y);
}
