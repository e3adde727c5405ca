// Left shifts of i32 at run time wrap (1 << 31 = INT_MIN, bits shifted out are lost) and the
// count is taken modulo 32; vector shifts of i32 by vec<u32>.
// @dispatch 1
// @bind 0:0 storage read 128 init=rand:i32:211
// @bind 0:1 storage rw 512
// @expect-py 0:1 i32 [i32(x << (k % 32)) for k, x in enumerate(inp(0,0,'i32'))] + [i32(1 << (k % 32)) for k in range(32, 128)]
@group(0) @binding(0) var<storage, read> a: array<i32, 32>;
@group(0) @binding(1) var<storage, read_write> r: array<i32, 128>;

@compute @workgroup_size(32)
fn main(@builtin(local_invocation_index) k: u32) {
  r[k] = a[k] << k;
  let v = vec3i(1) << vec3u(k + 32u, k + 64u, k + 96u);
  r[k + 32u] = v.x;
  r[k + 64u] = v.y;
  r[k + 96u] = v.z;
}
