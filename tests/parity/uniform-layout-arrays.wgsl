// Uniform-buffer layout: array<vec4u> (stride 16), an array of structs padded to 16 with the
// align and size attributes, a mat3x3f (columns 16 apart) and a vec3f followed by a u32 in its padding.
// @dispatch 1
// @bind 0:0 uniform 160 init=ramp:u32:1065353216
// @bind 0:1 storage rw 96
// @note the words are 0x3F800000 + k (k = word index): normal floats, so the matrix reads are exact
// @expect-py 0:1 u32 [1065353216 + k for k in (4, 5, 6, 7, 8, 12, 16, 20, 24, 28, 29, 30, 32, 34, 36, 37, 38)] + [3 ^ 25, 0, 0, 0, 0, 0, 0]
struct Item {
  @size(16) k: u32,          // 16 bytes each in the array
}
struct U {
  head: vec4u,               // words 0..3 (the comment numbers below are word offsets)
  vals: array<vec4u, 1>,     // words 4..7
  items: array<Item, 4>,     // words 8, 12, 16, 20
  @align(16) pair: vec2u,    // words 24..25
  m: mat3x3f,                // words 28..39: columns at 28, 32, 36
}
@group(0) @binding(0) var<uniform> u: U;
@group(0) @binding(1) var<storage, read_write> r: array<u32, 24>;

@compute @workgroup_size(1)
fn main() {
  r[0] = u.vals[0].x; r[1] = u.vals[0].y; r[2] = u.vals[0].z; r[3] = u.vals[0].w;
  for (var i = 0; i < 4; i++) { r[4 + i] = u.items[i].k; }
  r[8] = u.pair.x;
  r[9] = bitcast<u32>(u.m[0].x); r[10] = bitcast<u32>(u.m[0].y); r[11] = bitcast<u32>(u.m[0].z);
  r[12] = bitcast<u32>(u.m[1].x); r[13] = bitcast<u32>(u.m[1].z);
  r[14] = bitcast<u32>(u.m[2].x); r[15] = bitcast<u32>(u.m[2].y); r[16] = bitcast<u32>(u.m[2].z);
  r[17] = u.head.w ^ u.pair.y;
}
