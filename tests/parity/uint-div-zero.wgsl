// u32 division and remainder by zero (e1 / 0 = e1, e1 % 0 = 0) next to ordinary cases.
// @dispatch 1
// @bind 0:0 storage read 32 init=vals:u32:7,0,4294967295,4294967295,100,1,0,13
// @bind 0:1 storage read 32 init=vals:u32:0,0,0,4294967295,7,4294967295,5,4
// @bind 0:2 storage rw 64 pad=256
// @expect 0:2 u32 7,0,0,0,4294967295,0,1,0,14,2,0,1,0,0,3,1
@group(0) @binding(0) var<storage, read> a: array<u32, 8>;
@group(0) @binding(1) var<storage, read> b: array<u32, 8>;
@group(0) @binding(2) var<storage, read_write> r: array<u32, 16>;

@compute @workgroup_size(8)
fn main(@builtin(local_invocation_index) i: u32) {
  r[2u * i] = a[i] / b[i];
  r[2u * i + 1u] = a[i] % b[i];
}
