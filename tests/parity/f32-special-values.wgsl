// f32 infinities and NaNs at run time: WGSL lets implementations assume they do not occur, so
// results involving them are indeterminate and not compared (binding 0:2 is only recorded).
// Finite operations on the same data next to them must still be exact (binding 0:1), and
// infinities and NaNs must not change control flow elsewhere (the loop count stays 8).
// @dispatch 1
// @bind 0:0 storage read 32 init=vals:f32:inf,-inf,nan,0x7F800001,1.5,-2.0,0.0,3.0
// @bind 0:1 storage rw 32
// @bind 0:2 storage rw 128
// @expect 0:1 f32 3.0,-4.0,1.5,4.5,-0.5,1.0,8.0,0.0
// @compare 0:2 ignore
@group(0) @binding(0) var<storage, read> a: array<f32, 8>;
@group(0) @binding(1) var<storage, read_write> fin: array<f32, 8>;
@group(0) @binding(2) var<storage, read_write> sp: array<f32, 32>;

@compute @workgroup_size(1)
fn main() {
  for (var i = 0u; i < 4u; i++) {
    let s = a[i];
    sp[i * 8u] = s + 1.0;
    sp[i * 8u + 1u] = s * 0.0;
    sp[i * 8u + 2u] = min(s, 1.0);
    sp[i * 8u + 3u] = max(s, 1.0);
    sp[i * 8u + 4u] = clamp(s, -1.0, 1.0);
    sp[i * 8u + 5u] = f32(s == s);
    sp[i * 8u + 6u] = f32(s < 0.0);
    sp[i * 8u + 7u] = sqrt(s);
  }
  fin[0] = a[4] * 2.0;
  fin[1] = a[5] * 2.0;
  fin[2] = a[4] + a[6];
  fin[3] = a[4] * a[7];
  fin[4] = a[4] + a[5];
  fin[5] = a[5] / a[5];
  var n = 0.0;
  for (var k = 0; k < 8; k++) { n += 1.0; }
  fin[6] = n;
}
