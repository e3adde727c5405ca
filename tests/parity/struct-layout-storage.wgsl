// Host-shareable struct layout in storage: vec3 followed by a scalar packs into its padding,
// the align and size attributes move members, a nested struct aligns to 16, arrays of structs have stride =
// rounded size.  The kernel writes marker values through each member; the expected bytes are the
// WGSL layout rules (offsets in words noted per member).  Untouched bytes keep the fill.
// @dispatch 1
// @bind 0:0 storage rw 192 init=fill:0xEEEEEEEE
// @expect 0:0 u32 1,2,3,4,0xEEEEEEEE,0xEEEEEEEE,0xEEEEEEEE,0xEEEEEEEE,5,6,0xEEEEEEEE,0xEEEEEEEE,0xEEEEEEEE,0xEEEEEEEE,8,9,11,0xEEEEEEEE,0xEEEEEEEE,0xEEEEEEEE,12,13,14,15,16,0xEEEEEEEE,0xEEEEEEEE,0xEEEEEEEE,17,0xEEEEEEEE,0xEEEEEEEE,0xEEEEEEEE,0xEEEEEEEE,0xEEEEEEEE,0xEEEEEEEE,0xEEEEEEEE,0xEEEEEEEE,0xEEEEEEEE,0xEEEEEEEE,0xEEEEEEEE,0xEEEEEEEE,0xEEEEEEEE,0xEEEEEEEE,0xEEEEEEEE,0xEEEEEEEE,0xEEEEEEEE,0xEEEEEEEE,0xEEEEEEEE
struct Inner {
  v: vec3u,              // offset 0 (16-byte aligned), size 12
  w: u32,                // offset 12: Inner is 16 bytes
}
struct Outer {
  a: vec3u,              // word 0..2
  b: u32,                // word 3 (in the vec3's padding)
  @align(32) c: u32,     // word 8
  @size(16) d: u32,      // word 9, then 12 bytes of padding
  e: vec2u,              // words 14..15 (offset 52 rounded up to 8)
  @align(16) f: u32,     // word 16
  inner: array<Inner, 2>,// words 20..23 and 24..27 (stride 16)
  g: u32,                // word 28; struct size 128 (align 32)
}
@group(0) @binding(0) var<storage, read_write> s: Outer;

@compute @workgroup_size(1)
fn main() {
  s.a = vec3u(1u, 2u, 3u);
  s.b = 4u;
  s.c = 5u;
  s.d = 6u;
  s.e = vec2u(8u, 9u);
  s.f = 11u;
  s.inner[0].v = vec3u(12u, 13u, 14u);
  s.inner[0].w = 15u;
  s.inner[1].v.x = 16u;
  s.g = 17u;
}
