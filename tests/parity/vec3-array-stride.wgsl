// array<vec3f> in storage has a 16-byte stride; the kernel reads and writes vec3 elements and
// the fourth (padding) word is not part of any element (its content is not compared).
// @dispatch 1
// @bind 0:0 storage read 256 init=ramp:f32
// @bind 0:1 storage rw 256 init=fill:0x7F7F7F7F
// @expect-py 0:1 f32 [v for i in range(16) for v in (2 * (4 * i) + 1, 2 * (4 * i + 1) + 1, 2 * (4 * i + 2) + 1, None)]
// @compare 0:1 exact words=0..2,4..6,8..10,12..14,16..18,20..22,24..26,28..30,32..34,36..38,40..42,44..46,48..50,52..54,56..58,60..62
@group(0) @binding(0) var<storage, read> a: array<vec3f>;
@group(0) @binding(1) var<storage, read_write> b: array<vec3f>;

@compute @workgroup_size(16)
fn main(@builtin(local_invocation_index) i: u32) {
  b[i] = a[i] * 2.0 + 1.0;
}
