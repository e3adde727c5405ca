// f16 in storage and bitcast between u32 and vec2<f16>: halves swap through a bitcast.
// @requires shader-f16
// @dispatch 1
// @bind 0:0 storage read 64 init=rand:u32:201
// @bind 0:1 storage rw 64
// @expect-py 0:1 u32 [((x & 0xFFFF) << 16) | (x >> 16) for x in [(y & 0x7BFF7BFF) | 0x04000400 for y in inp(0,0)]]
enable f16;
@group(0) @binding(0) var<storage, read> a: array<u32, 16>;
@group(0) @binding(1) var<storage, read_write> r: array<u32, 16>;

@compute @workgroup_size(16)
fn main(@builtin(local_invocation_index) i: u32) {
  let v = bitcast<vec2h>((a[i] & 0x7BFF7BFFu) | 0x04000400u);   // normal, finite halves
  r[i] = bitcast<u32>(v.yx);
}
