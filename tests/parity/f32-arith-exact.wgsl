// f32 + - * are correctly rounded (WGSL accuracy: exact for x+y, x-y, x*y); division within
// 2.5 ulp; fma within the accuracy of x*y+z (two roundings, checked loosely).
// @dispatch 2
// @bind 0:0 storage read 512 init=rand:f32:51
// @bind 0:1 storage read 512 init=rand:f32:52
// @bind 0:2 storage rw 2048
// @compare 0:2 ulp:3
// @expect-py 0:2 f32 [v for a, b in zip(inp(0,0,'f32'), inp(0,1,'f32')) for v in (f32(a + b), f32(a - b), f32(a * b), None)]
// @expect-py 0:2 f32 ulp:3 [None if k % 4 != 3 else a / b for k, (a, b) in enumerate((x, y) for x, y in zip(inp(0,0,'f32'), inp(0,1,'f32')) for _ in range(4))]
@group(0) @binding(0) var<storage, read> a: array<f32, 128>;
@group(0) @binding(1) var<storage, read> b: array<f32, 128>;
@group(0) @binding(2) var<storage, read_write> r: array<vec4f, 128>;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) g: vec3u) {
  let x = a[g.x];
  let y = b[g.x];
  r[g.x] = vec4f(x + y, x - y, x * y, x / y);
}
