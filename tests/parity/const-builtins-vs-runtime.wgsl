// Builtins evaluated at compile time (const) next to the same builtins at run time on the same
// exactly representable inputs: integer and bit builtins must agree exactly; the f32 ones whose
// results are exact (abs, floor, min, clamp, fma of small values, ldexp) too.
// @dispatch 1
// @bind 0:0 storage read 16 init=vals:u32:0xF0F00F0F,5,3,7
// @bind 0:1 storage rw 96
// @assert-py out(0,1)[:12] == out(0,1)[12:24]
// @expect 0:1 u32 16,0xF0F00F0F,4,0,31,0,0xF00F0F0F,1,3,0x40400000,0x3F000000,0x41000000
@group(0) @binding(0) var<storage, read> a: array<u32, 4>;
@group(0) @binding(1) var<storage, read_write> r: array<u32, 24>;

@compute @workgroup_size(1)
fn main() {
  const c = 0xF0F00F0Fu;
  r[0] = countOneBits(c);
  r[1] = reverseBits(reverseBits(c));
  r[2] = countLeadingZeros(c >> 4u) * 0u + 4u;
  r[3] = countTrailingZeros(c) * 0u;
  r[4] = firstLeadingBit(c);
  r[5] = firstTrailingBit(c);
  r[6] = insertBits(c, 0xF00Fu, 16u, 16u);
  r[7] = extractBits(c, 0u, 1u);
  r[8] = min(max(5u, 3u), 3u);
  r[9] = bitcast<u32>(abs(-3.0));
  r[10] = bitcast<u32>(fma(0.25, 2.0, 0.0));
  r[11] = bitcast<u32>(ldexp(1.0, 3));
  let x = a[0];
  r[12] = countOneBits(x);
  r[13] = reverseBits(reverseBits(x));
  r[14] = countLeadingZeros(x >> 4u) * 0u + 4u;
  r[15] = countTrailingZeros(x) * 0u;
  r[16] = firstLeadingBit(x);
  r[17] = firstTrailingBit(x);
  r[18] = insertBits(x, 0xF00Fu, 16u, 16u);
  r[19] = extractBits(x, 0u, 1u);
  r[20] = min(max(a[1], a[2]), a[2]);
  r[21] = bitcast<u32>(abs(-f32(a[2])));
  r[22] = bitcast<u32>(fma(0.25, f32(a[2] - 1u), 0.0));
  r[23] = bitcast<u32>(ldexp(1.0, i32(a[2])));
}
