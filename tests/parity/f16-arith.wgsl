// f16 arithmetic (enable f16) on values exact in f16: conversions from and to f32, + - * on
// small values, min/max/abs, and f16 in storage (array<f16>, vec2<f16>).
// @requires shader-f16
// @dispatch 1
// @bind 0:0 storage read 64 init=ramp:f32:-4:0.5
// @bind 0:1 storage rw 64
// @bind 0:2 storage rw 32
// @expect-py 0:1 f32 [x * 2 + 1 for x in inp(0,0,'f32')]
// @expect-py 0:2 u32 [struct.unpack('<I', struct.pack('<ee', inp(0,0,'f32')[2*k] * 0.25, abs(inp(0,0,'f32')[2*k+1])))[0] for k in range(8)]
enable f16;
@group(0) @binding(0) var<storage, read> a: array<f32, 16>;
@group(0) @binding(1) var<storage, read_write> r: array<f32, 16>;
@group(0) @binding(2) var<storage, read_write> h: array<vec2h, 8>;

@compute @workgroup_size(16)
fn main(@builtin(local_invocation_index) i: u32) {
  let x = f16(a[i]);
  r[i] = f32(x * 2.0h + 1.0h);
  if (i < 8u) {
    h[i] = vec2h(f16(a[2u * i]) * 0.25h, abs(f16(a[2u * i + 1u])));
  }
}
