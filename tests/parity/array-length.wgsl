// arrayLength of runtime-sized arrays: plain u32 array, vec3f array (stride 16), and an array
// after a struct header of 32 bytes (u32 at 0, vec3u aligned to 16 at 16, items at 32), and an
// array<vec4u> bound with 40 bytes (not a multiple of the stride: floor(40 / 16) = 2).
// @dispatch 1
// @bind 0:0 storage read 100
// @bind 0:1 storage read 160
// @bind 0:2 storage read 112
// @bind 0:3 storage rw 16
// @bind 0:4 storage read 40
// @expect 0:3 u32 25,10,10,2
struct H {
  count: u32,
  pad: vec3u,
  items: array<vec2u>,
}
@group(0) @binding(0) var<storage, read> a: array<u32>;
@group(0) @binding(1) var<storage, read> b: array<vec3f>;
@group(0) @binding(2) var<storage, read> h: H;
@group(0) @binding(3) var<storage, read_write> r: array<u32, 4>;
@group(0) @binding(4) var<storage, read> v: array<vec4u>;

@compute @workgroup_size(1)
fn main() {
  r[0] = arrayLength(&a);
  r[1] = arrayLength(&b);
  r[2] = arrayLength(&h.items);
  r[3] = arrayLength(&v);
}
