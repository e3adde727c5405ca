// min, max, clamp, abs on i32 and u32 (exact).
// @dispatch 2
// @bind 0:0 storage read 512 init=rand:u32:71
// @bind 0:1 storage read 512 init=rand:u32:72
// @bind 0:2 storage rw 4096
// @expect-py 0:2 u32 [u32(v) for a, b in zip(inp(0,0), inp(0,1)) for v in (min(i32(a), i32(b)), max(i32(a), i32(b)), min(max(i32(a), -1000), 100000), abs(i32(a)), min(a, b), max(a, b), min(max(a, 1000), 3000000000), 0)]
@group(0) @binding(0) var<storage, read> a: array<u32, 128>;
@group(0) @binding(1) var<storage, read> b: array<u32, 128>;
@group(0) @binding(2) var<storage, read_write> r: array<array<u32, 8>, 128>;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) g: vec3u) {
  let x = a[g.x];
  let y = b[g.x];
  let sx = bitcast<i32>(x);
  let sy = bitcast<i32>(y);
  r[g.x][0] = bitcast<u32>(min(sx, sy));
  r[g.x][1] = bitcast<u32>(max(sx, sy));
  r[g.x][2] = bitcast<u32>(clamp(sx, -1000, 100000));
  r[g.x][3] = bitcast<u32>(abs(sx));
  r[g.x][4] = min(x, y);
  r[g.x][5] = max(x, y);
  r[g.x][6] = clamp(x, 1000u, 3000000000u);
}
