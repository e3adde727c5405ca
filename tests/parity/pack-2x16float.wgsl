// pack2x16float / unpack2x16float on values exactly representable in f16 (no rounding choice),
// and quantizeToF16 on the same values (identity); needs no f16 extension.
// @dispatch 1
// @bind 0:0 storage read 64 init=vals:f32:1.0,-2.25,65504.0,6.103515625e-05,-0.25,0.5,1024.0,-0.0999755859375,3.0,-65504.0,0.000244140625,7.0,0.0999755859375,0.199951171875,100.0,-1.0
// @bind 0:1 storage rw 32
// @bind 0:2 storage rw 64
// @expect 0:1 u32 0xC0803C00,0x04007BFF,0x3800B400,0xAE666400,0xFBFF4200,0x47000C00,0x32662E66,0xBC005640
// @bind 0:3 storage rw 64
// @expect-py 0:2 f32 inp(0,0,'f32')
// @expect-py 0:3 f32 inp(0,0,'f32')
@group(0) @binding(0) var<storage, read> a: array<vec2f, 8>;
@group(0) @binding(1) var<storage, read_write> p: array<u32, 8>;
@group(0) @binding(2) var<storage, read_write> u: array<vec2f, 8>;
@group(0) @binding(3) var<storage, read_write> q: array<vec2f, 8>;

@compute @workgroup_size(8)
fn main(@builtin(local_invocation_index) i: u32) {
  let v = a[i];
  p[i] = pack2x16float(v);
  u[i] = unpack2x16float(p[i]);
  q[i] = quantizeToF16(v);
}
