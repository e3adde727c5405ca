// Compound assignments (+= -= *= /= %= &= |= ^= <<= >>=), ++ and -- on storage elements,
// vector components and through a pointer.
// @dispatch 1
// @bind 0:0 storage rw 64 init=vals:i32:100,7,-9,12,0xF0,0x0F,3,1,1000,0,0,0,0,0,0,0
// @expect 0:0 i32 105,1,-15,4,0xFF,0x07,12,2,999,10,20,33,0,0,0,0
@group(0) @binding(0) var<storage, read_write> a: array<i32, 16>;

fn twice(p: ptr<storage, i32, read_write>) { *p *= 2; }

@compute @workgroup_size(1)
fn main() {
  a[0] += 5;
  a[1] %= 3;
  a[2] -= 6;
  a[3] /= 3;
  a[4] |= 0x0F;
  a[5] &= 0x07;
  a[6] <<= 2u;
  a[7]++;
  a[8]--;
  var v = vec3i(1, 2, 3);
  v.x *= 10;
  v[1] += 18;
  v.z ^= 34;
  a[9] = v.x; a[10] = v.y; a[11] = v.z;
  twice(&a[7]);
  a[7] >>= 1u;
}
