// Component-wise vector shifts with per-component counts, including counts >= 32 (masked).
// @dispatch 1
// @bind 0:0 storage read 64 init=rand:u32:41
// @bind 0:1 storage rw 64
// @expect-py 0:1 u32 [u32(x << (c % 32)) if j % 2 == 0 else x >> (c % 32) for j, (x, c) in enumerate(zip(inp(0,0), [0, 31, 32, 33, 63, 64, 95, 7, 1, 16, 48, 100, 255, 4000000000, 2, 3]))]
@group(0) @binding(0) var<storage, read> a: array<vec4u, 4>;
@group(0) @binding(1) var<storage, read_write> r: array<vec4u, 4>;

@compute @workgroup_size(1)
fn main() {
  var counts = array<vec4u, 4>(vec4u(0u, 31u, 32u, 33u), vec4u(63u, 64u, 95u, 7u),
                               vec4u(1u, 16u, 48u, 100u), vec4u(255u, 4000000000u, 2u, 3u));
  for (var i = 0; i < 4; i++) {
    let s = a[i] << counts[i];
    let t = a[i] >> counts[i];
    r[i] = vec4u(s.x, t.y, s.z, t.w);
  }
}
