// countOneBits, reverseBits, countLeadingZeros, countTrailingZeros on u32 and i32 (vectors too).
// @dispatch 1
// @bind 0:0 storage read 256 init=rand:u32:81
// @bind 0:1 storage rw 1024
// @expect-py 0:1 u32 [v for x in inp(0,0)[:60] + [0, 0xFFFFFFFF, 0x80000000, 1] for v in (bin(x).count('1'), int('{:032b}'.format(x)[::-1], 2), 32 - x.bit_length(), (x & -x).bit_length() - 1 if x else 32)]
@group(0) @binding(0) var<storage, read> a: array<u32, 64>;
@group(0) @binding(1) var<storage, read_write> r: array<vec4u, 64>;

@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) i: u32) {
  var x = a[i];
  if (i == 60u) { x = 0u; }
  if (i == 61u) { x = 0xFFFFFFFFu; }
  if (i == 62u) { x = 0x80000000u; }
  if (i == 63u) { x = 1u; }
  let s = bitcast<i32>(x);
  // The signed forms must agree with the unsigned ones bit for bit.
  r[i] = vec4u(countOneBits(x), reverseBits(x), countLeadingZeros(x), countTrailingZeros(x))
       | bitcast<vec4u>(vec4i(countOneBits(s), reverseBits(s), countLeadingZeros(s), countTrailingZeros(s)));
}
