// Component-wise vector / and % with zero and -1 divisors mixed in (i32 and u32 vectors): each
// component follows the scalar rules (e / 0 = e, e % 0 = 0, INT_MIN / -1 = INT_MIN).
// @dispatch 1
// @bind 0:0 storage read 64 init=vals:i32:7,-2147483648,-9,100,2147483647,-2147483648,5,-5,0,1,-1,13,64,-64,3,-3
// @bind 0:1 storage read 64 init=vals:i32:0,-1,2,-7,0,1,0,-1,0,-1,0,4,-1,3,0,2
// @bind 0:2 storage rw 128
// @expect 0:2 i32 7,-2147483648,-4,-14,2147483647,-2147483648,5,5,0,-1,-1,3,-64,-21,3,-1,0,0,-1,2,0,0,0,0,0,0,0,1,0,-1,0,-1
// @bind 0:3 storage rw 64
// @expect-py 0:3 u32 [a if b == 0 else a // b for a, b in zip([u32(x) for x in inp(0,0,'i32')[:8]], [u32(x) for x in inp(0,1,'i32')[:8]])] + [0 if b == 0 else a % b for a, b in zip([u32(x) for x in inp(0,0,'i32')[8:]], [u32(x) for x in inp(0,1,'i32')[8:]])]
@group(0) @binding(0) var<storage, read> a: array<vec4i, 4>;
@group(0) @binding(1) var<storage, read> b: array<vec4i, 4>;
@group(0) @binding(2) var<storage, read_write> r: array<vec4i, 8>;
@group(0) @binding(3) var<storage, read_write> u: array<vec4u, 4>;

@compute @workgroup_size(4)
fn main(@builtin(local_invocation_index) i: u32) {
  r[i] = a[i] / b[i];
  r[4u + i] = a[i] % b[i];
  if (i < 2u) {
    u[i] = bitcast<vec4u>(a[i]) / bitcast<vec4u>(b[i]);
  } else {
    u[i] = bitcast<vec4u>(a[i]) % bitcast<vec4u>(b[i]);
  }
}
