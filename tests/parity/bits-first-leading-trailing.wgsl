// firstLeadingBit (u32, and i32 where negatives find the highest 0 bit; 0 and -1 give -1) and
// firstTrailingBit (0 gives -1 / 0xFFFFFFFF).
// @dispatch 1
// @bind 0:0 storage read 256 init=rand:u32:101
// @bind 0:1 storage rw 768
// @expect-py 0:1 u32 [v for x in [y >> (y & 31) for y in inp(0,0)[:60]] + [0, 0xFFFFFFFF, 0x80000000, 1] for v in (x.bit_length() - 1 if x else 0xFFFFFFFF, u32((x if x < 2**31 else ~x & 0xFFFFFFFF).bit_length() - 1) if x not in (0, 0xFFFFFFFF) else 0xFFFFFFFF, (x & -x).bit_length() - 1 if x else 0xFFFFFFFF)]
@group(0) @binding(0) var<storage, read> a: array<u32, 64>;
@group(0) @binding(1) var<storage, read_write> r: array<u32, 192>;

@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) i: u32) {
  var x = a[i] >> (a[i] & 31u);   // vary the magnitude
  if (i == 60u) { x = 0u; }
  if (i == 61u) { x = 0xFFFFFFFFu; }
  if (i == 62u) { x = 0x80000000u; }
  if (i == 63u) { x = 1u; }
  r[3u * i] = firstLeadingBit(x);
  r[3u * i + 1u] = bitcast<u32>(firstLeadingBit(bitcast<i32>(x)));
  r[3u * i + 2u] = firstTrailingBit(x);
}
