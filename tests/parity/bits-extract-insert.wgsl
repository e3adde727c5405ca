// extractBits (unsigned and sign-extending) and insertBits, including offset + count > 32 and
// count 0 (WGSL: o = min(offset, 32), c = min(count, 32 - o)).
// @dispatch 1
// @bind 0:0 storage read 256 init=rand:u32:91
// @bind 0:1 storage read 256 init=rand:u32:92
// @bind 0:2 storage rw 768
// @expect-py 0:2 u32 [v for k, (e, nb) in enumerate(zip(inp(0,0), inp(0,1))) for (o, c) in [(min((k * 7) % 40, 32), min((k * 13) % 40, 32 - min((k * 7) % 40, 32)))] for v in (((e >> o) & ((1 << c) - 1)) if c else 0, u32((((e >> o) & ((1 << c) - 1)) ^ (1 << (c - 1))) - (1 << (c - 1))) if c else 0, (e & ~(((1 << c) - 1) << o) & 0xFFFFFFFF) | ((nb << o) & (((1 << c) - 1) << o)))]
@group(0) @binding(0) var<storage, read> a: array<u32, 64>;
@group(0) @binding(1) var<storage, read> b: array<u32, 64>;
@group(0) @binding(2) var<storage, read_write> r: array<u32, 192>;

@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) k: u32) {
  let off = (k * 7u) % 40u;
  let cnt = (k * 13u) % 40u;
  r[3u * k] = extractBits(a[k], off, cnt);
  r[3u * k + 1u] = bitcast<u32>(extractBits(bitcast<i32>(a[k]), off, cnt));
  r[3u * k + 2u] = insertBits(a[k], b[k], off, cnt);
}
