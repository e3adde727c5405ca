@group(0) @binding(0) var<storage, read_write> out: array<i32>;

@compute @workgroup_size(1)
fn main(@builtin(global_invocation_id) gid: vec3u) {
  var x = out[0];
  x += 1;
  x -= 2;
  x *= 3;
  x /= 4;
  x %= 5;
  x &= 6;
  x |= 7;
  x ^= 8;
  x <<= 1u;
  x >>= 2u;
  out[1] = x;
}
