// f16 in host-shareable layouts: array<f16> (stride 2), vec3<f16> (size 6, align 8), a struct
// mixing f16 and f32 members; written from exact values, read back as raw u32 words.
// @requires shader-f16
// @dispatch 1
// @bind 0:0 storage rw 64 init=fill:0xEEEEEEEE
// @let-py H = lambda v: struct.unpack('<H', struct.pack('<e', v))[0]
// @expect-py 0:0 u32 [H(1.0) | H(2.0) << 16, H(3.0) | H(-4.0) << 16, H(0.5) | H(0.25) << 16, H(8.0) | H(1.5) << 16, 0x3F800000] + [0xEEEEEEEE] * 11
enable f16;
struct S {
  arr: array<f16, 4>,     // bytes 0..7
  v: vec3<f16>,           // bytes 8..13 (align 8, size 6)
  h: f16,                 // bytes 14..15 (packs after the vec3)
  f: f32,                 // bytes 16..19; struct size 24
}
@group(0) @binding(0) var<storage, read_write> s: S;

@compute @workgroup_size(1)
fn main() {
  s.arr[0] = 1.0h; s.arr[1] = 2.0h; s.arr[2] = 3.0h; s.arr[3] = -4.0h;
  s.v = vec3<f16>(0.5h, 0.25h, 8.0h);
  s.h = 1.5h;
  s.f = 1.0;
}
