// dot4U8Packed and dot4I8Packed (packed_4x8_integer_dot_product): byte-wise dot products.
// @dispatch 1
// @bind 0:0 storage read 256 init=rand:u32:111
// @bind 0:1 storage read 256 init=rand:u32:112
// @bind 0:2 storage rw 512
// @expect-py 0:2 u32 [v for x, y in zip(inp(0,0), inp(0,1)) for v in (sum(((x >> s) & 255) * ((y >> s) & 255) for s in (0, 8, 16, 24)), u32(sum(((((x >> s) & 255) ^ 128) - 128) * ((((y >> s) & 255) ^ 128) - 128) for s in (0, 8, 16, 24))))]
@group(0) @binding(0) var<storage, read> a: array<u32, 64>;
@group(0) @binding(1) var<storage, read> b: array<u32, 64>;
@group(0) @binding(2) var<storage, read_write> r: array<vec2u, 64>;

@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) i: u32) {
  r[i] = vec2u(dot4U8Packed(a[i], b[i]), bitcast<u32>(dot4I8Packed(a[i], b[i])));
}
