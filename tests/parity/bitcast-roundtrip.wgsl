// bitcast between u32, i32, f32 and their vectors keeps every bit (exponent forced into
// 1..127: no NaN, infinity or subnormal pattern takes part, so negation is exact too).
// @dispatch 1
// @bind 0:0 storage read 256 init=rand:u32:131
// @bind 0:1 storage rw 1024
// @expect-py 0:1 u32 [v for x in inp(0,0) for y in [(x & 0xBFFFFFFF) | 0x00800000] for v in (y, y, y ^ 0x80000000, y)]
@group(0) @binding(0) var<storage, read> a: array<u32, 64>;
@group(0) @binding(1) var<storage, read_write> r: array<vec4u, 64>;

@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) i: u32) {
  let y = (a[i] & 0xBFFFFFFFu) | 0x00800000u;  // exponent in 1..127: a normal float
  let f = bitcast<f32>(y);
  let v = bitcast<vec2f>(vec2u(y, y));
  let s = bitcast<vec2i>(v);
  r[i] = vec4u(bitcast<u32>(f), bitcast<u32>(s.y), bitcast<u32>(-f), bitcast<u32>(bitcast<i32>(f)));
}
