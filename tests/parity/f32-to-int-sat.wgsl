// f32 -> i32 / u32 conversion rounds toward zero and saturates (WGSL "Floating Point
// Conversion"): i32 range [-2^31, 2^31 - 128] (the largest f32 below 2^31), u32 [0, 2^32 - 256].
// NaN and the infinities (indices 7, 4, 5) convert to unspecified values (WGSL lets an
// implementation assume they never occur at run time): "_" and excluded from parity.
// @dispatch 1
// @bind 0:0 storage read 64 init=vals:f32:1.9,-1.9,1e10,-1e10,inf,-inf,2147483648.0,nan,2147483520.0,-2147483648.0,-2147483904.0,4294967040.0,4294967296.0,-0.5,0.99999994,-3e38
// @bind 0:1 storage rw 64
// @bind 0:2 storage rw 64
// @expect 0:1 i32 1,-1,2147483520,-2147483648,_,_,2147483520,_,2147483520,-2147483648,-2147483648,2147483520,2147483520,0,0,-2147483648
// @expect 0:2 u32 1,0,4294967040,0,_,_,2147483648,_,2147483520,0,0,4294967040,4294967040,0,0,0
// @compare 0:1 exact words=0..3,6,8..15
// @compare 0:2 exact words=0..3,6,8..15
@group(0) @binding(0) var<storage, read> a: array<f32, 16>;
@group(0) @binding(1) var<storage, read_write> ri: array<i32, 16>;
@group(0) @binding(2) var<storage, read_write> ru: array<u32, 16>;

@compute @workgroup_size(16)
fn main(@builtin(local_invocation_index) i: u32) {
  ri[i] = i32(a[i]);
  ru[i] = u32(a[i]);
}
