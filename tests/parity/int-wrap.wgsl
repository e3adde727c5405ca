// i32 + - * wrap around modulo 2^32 (two's complement); unary minus of INT_MIN is INT_MIN.
// @dispatch 2
// @bind 0:0 storage read 512 init=rand:i32:21
// @bind 0:1 storage read 512 init=rand:i32:22
// @bind 0:2 storage rw 2048
// @expect-py 0:2 i32 [v for a, b in zip(inp(0,0,'i32'), inp(0,1,'i32')) for v in (i32(a + b), i32(a - b), i32(a * b), i32(-a))]
@group(0) @binding(0) var<storage, read> a: array<i32, 128>;
@group(0) @binding(1) var<storage, read> b: array<i32, 128>;
@group(0) @binding(2) var<storage, read_write> r: array<vec4<i32>, 128>;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) g: vec3u) {
  let x = a[g.x];
  let y = b[g.x];
  r[g.x] = vec4<i32>(x + y, x - y, x * y, -x);
}
