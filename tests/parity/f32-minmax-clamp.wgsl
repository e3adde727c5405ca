// min, max, clamp, saturate, select and step on finite f32 inputs (exact results).
// @dispatch 2
// @bind 0:0 storage read 512 init=rand:f32:61
// @bind 0:1 storage read 512 init=rand:f32:62
// @bind 0:2 storage rw 3072
// @expect-py 0:2 f32 [v for a, b in zip(inp(0,0,'f32'), inp(0,1,'f32')) for v in (min(a, b), max(a, b), min(max(a, -0.25), 0.5), min(max(2 * a, 0.0), 1.0), a if b > 0 else b, 1.0 if b >= a else 0.0)]
@group(0) @binding(0) var<storage, read> a: array<f32, 128>;
@group(0) @binding(1) var<storage, read> b: array<f32, 128>;
@group(0) @binding(2) var<storage, read_write> r: array<f32, 768>;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) g: vec3u) {
  let x = a[g.x];
  let y = b[g.x];
  let o = 6u * g.x;
  r[o] = min(x, y);
  r[o + 1u] = max(x, y);
  r[o + 2u] = clamp(x, -0.25, 0.5);
  r[o + 3u] = saturate(2.0 * x);
  r[o + 4u] = select(y, x, y > 0.0);
  r[o + 5u] = step(x, y);
}
