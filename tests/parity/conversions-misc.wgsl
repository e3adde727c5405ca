// Value conversions: bool <-> numbers, u32 <-> i32 (bit reinterpretation), vector conversions,
// f32 -> u32/i32 of in-range values, select on bool vectors.
// @dispatch 1
// @bind 0:0 storage read 32 init=vals:u32:0,1,4294967295,2147483648,7,0,3,5
// @bind 0:1 storage rw 128
// @expect 0:1 i32 0,1,-1,-2147483648,0,1,1,1,1,0,1,0,7,0,3,5,1,0,1,1,-3,3,2,0,4,2,3,0,10,20,3,40
@group(0) @binding(0) var<storage, read> a: array<u32, 8>;
@group(0) @binding(1) var<storage, read_write> r: array<i32, 32>;

@compute @workgroup_size(1)
fn main() {
  for (var i = 0; i < 4; i++) { r[i] = i32(a[i]); }
  for (var i = 0; i < 4; i++) { r[4 + i] = i32(bool(a[i])) + select(0, 0, a[i] == 0u); }
  r[4] = i32(a[0] != 0u);
  let bv = vec4<bool>(a[4] > 3u, a[5] > 3u, a[6] > 3u, a[7] > 3u);
  r[8] = i32(bv.x); r[9] = i32(bv.y); r[10] = i32(bv.z || bv.w); r[11] = i32(all(bv));
  let sel = select(vec4u(0u), vec4u(a[4], a[5], a[6], a[7]), vec4<bool>(true, false, true, true));
  r[12] = i32(sel.x); r[13] = i32(sel.y); r[14] = i32(sel.z); r[15] = i32(sel.w);
  r[16] = i32(f32(a[1]));
  r[17] = i32(u32(false));
  r[18] = i32(f32(true));
  r[19] = i32(any(bv));
  let fv = vec4f(-3.7, 3.7, 2.5, 0.2);
  let iv = vec4i(fv);
  r[20] = iv.x; r[21] = iv.y; r[22] = iv.z; r[23] = iv.w;
  let uv = vec3u(vec3f(4.9, 2.1, 3.99));
  r[24] = i32(uv.x); r[25] = i32(uv.y); r[26] = i32(uv.z);
  r[27] = i32(u32(-0.5));
  let m = vec4i(vec4u(10u, 20u, 3u, 40u));
  r[28] = m.x; r[29] = m.y; r[30] = m.z; r[31] = m.w;
}
