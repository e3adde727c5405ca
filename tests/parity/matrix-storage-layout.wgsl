// Matrices in storage: mat3x3f has 16-byte column stride (the fourth word of each column is
// padding and not written), mat2x2f 8, mat4x3f 16; element writes through dynamic indices and
// whole-matrix copies.
// @dispatch 1
// @bind 0:0 storage read 48 init=ramp:f32:1
// @bind 0:1 storage rw 160 init=fill:0x7E7E7E7E
// @expect-py 0:1 u32 [f32bits(v) if v is not None else 0x7E7E7E7E for v in [1, 2, 3, None, 5, 6, 7, None, 9, 10, 11, None] + [100, 101, 102, 103] + [0, 1, 2, None, 10, 11, 12, None, 20, 21, 22, None, 30, 31, 32, None] + [1 + 5 + 9, 2 + 6 + 10, 3 + 7 + 11, None]]
@group(0) @binding(0) var<storage, read> m: mat3x3f;
struct Out {
  copy: mat3x3f,          // words 0..11 (columns at 0, 4, 8)
  small: mat2x2f,         // words 12..15
  tall: mat4x3f,          // words 16..31
  rowsum: vec3f,          // words 32..34
}
@group(0) @binding(1) var<storage, read_write> o: Out;

@compute @workgroup_size(1)
fn main() {
  o.copy = m;
  var k = 100.0;
  for (var c = 0; c < 2; c++) {
    for (var r = 0; r < 2; r++) { o.small[c][r] = k; k += 1.0; }
  }
  for (var c = 0u; c < 4u; c++) {
    for (var r = 0u; r < 3u; r++) { o.tall[c][r] = f32(c * 10u + r); }
  }
  o.rowsum = m * vec3f(1.0);
}
