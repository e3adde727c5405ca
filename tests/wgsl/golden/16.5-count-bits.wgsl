@group(0) @binding(0) var<storage, read_write> out: array<u32>;

@compute @workgroup_size(1)
fn main(@builtin(global_invocation_id) gid: vec3u) {
  let x = out[0];
  out[1] = countOneBits(x) + countLeadingZeros(x) + countTrailingZeros(x) + reverseBits(x);
}
