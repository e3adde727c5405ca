// u32 + - * wrap around modulo 2^32; ~ and unary bit ops.
// @dispatch 2
// @bind 0:0 storage read 512 init=rand:u32:31
// @bind 0:1 storage read 512 init=rand:u32:32
// @bind 0:2 storage rw 2048
// @expect-py 0:2 u32 [v for a, b in zip(inp(0,0), inp(0,1)) for v in (u32(a + b), u32(a - b), u32(a * b), u32(~a))]
@group(0) @binding(0) var<storage, read> a: array<u32, 128>;
@group(0) @binding(1) var<storage, read> b: array<u32, 128>;
@group(0) @binding(2) var<storage, read_write> r: array<vec4u, 128>;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) g: vec3u) {
  let x = a[g.x];
  let y = b[g.x];
  r[g.x] = vec4u(x + y, x - y, x * y, ~x);
}
