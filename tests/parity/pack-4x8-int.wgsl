// pack4xI8, pack4xU8 (truncating), pack4xI8Clamp, pack4xU8Clamp, unpack4xI8, unpack4xU8.
// @dispatch 1
// @bind 0:0 storage read 1024 init=rand:i32:121
// @bind 0:1 storage rw 1536
// @expect-py 0:1 u32 [v for q in range(64) for c in [[(x >> (x & 15 | 16)) if x & 1 else (x >> 24) for x in inp(0,0,'i32')[4*q:4*q+4]]] for v in (sum((u32(c[j]) & 255) << (8*j) for j in range(4)), sum((u32(c[j]) & 255) << (8*j) for j in range(4)), sum((u32(max(-128, min(127, c[j]))) & 255) << (8*j) for j in range(4)), sum(max(0, min(255, c[j])) << (8*j) for j in range(4)), u32((((u32(c[0]) & 255) ^ 128) - 128)), u32(c[1]) & 255)]
@group(0) @binding(0) var<storage, read> a: array<vec4i, 64>;
@group(0) @binding(1) var<storage, read_write> r: array<array<u32, 6>, 64>;

@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) i: u32) {
  let x = a[i];
  // Odd words become small (so that clamping matters for some and not others).
  let sh = vec4u((x & vec4i(15)) | vec4i(16));
  let c = select(x >> vec4u(24u), x >> sh, (x & vec4i(1)) != vec4i(0));
  r[i][0] = pack4xI8(c);
  r[i][1] = pack4xU8(bitcast<vec4u>(c));
  r[i][2] = pack4xI8Clamp(c);
  r[i][3] = pack4xU8Clamp(bitcast<vec4u>(max(c, vec4i(0))));
  r[i][4] = bitcast<u32>(unpack4xI8(pack4xI8(c)).x);
  r[i][5] = unpack4xU8(pack4xU8(bitcast<vec4u>(c))).y;
}
