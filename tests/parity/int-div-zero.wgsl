// Integer division and remainder by zero, and INT_MIN / -1, INT_MIN % -1 (WGSL "Arithmetic
// Expressions": e1 / 0 = e1, e1 % 0 = 0, INT_MIN / -1 = INT_MIN, INT_MIN % -1 = 0).
// @dispatch 1
// @bind 0:0 storage read 32 init=vals:i32:7,-7,-2147483648,-2147483648,5,0,2147483647,-1
// @bind 0:1 storage read 32 init=vals:i32:0,0,-1,-1,0,0,0,-1
// @bind 0:2 storage rw 64 pad=256
// @expect 0:2 i32 7,0,-7,0,-2147483648,0,-2147483648,0,5,0,0,0,2147483647,0,1,0
@group(0) @binding(0) var<storage, read> a: array<i32, 8>;
@group(0) @binding(1) var<storage, read> b: array<i32, 8>;
@group(0) @binding(2) var<storage, read_write> r: array<i32, 16>;

@compute @workgroup_size(8)
fn main(@builtin(local_invocation_index) i: u32) {
  r[2u * i] = a[i] / b[i];
  r[2u * i + 1u] = a[i] % b[i];
}
