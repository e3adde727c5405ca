// Swizzle assignment: v.zx = e, v.yx op= e, through a pointer, into a storage vector and into an
// array element, and swizzles of swizzles (v.zyx.zx = e: v.x, v.z; v.xy.y += e); the components
// not named keep their values.
// @dispatch 1
// @bind 0:0 storage rw 80 init=vals:f32:1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20
// @expect 0:0 f32 30,20,3,10,5,6,70,80,107,102,11,12,2.5,14,3.5,1,40,18,21,50
struct S { a: vec4f, b: vec4f, c: array<vec4f, 2>, d: vec4f }
@group(0) @binding(0) var<storage, read_write> s: S;

fn set_wx(p: ptr<function, vec4f>, x: vec2f) { p.wx = x; }

@compute @workgroup_size(1) fn main() {
  var v = vec4f(1.0, 2.0, 3.0, 4.0);
  v.zx = vec2f(10.0, 30.0);          // 30 2 10 4
  v.yx += vec2f(18.0, 0.0);          // 30 20 10 4
  set_wx(&v, vec2f(10.0, 3.0));      // 3 20 10 10
  s.a = vec4f(v.w, v.y, v.x, v.z);   // 10 20 3 10  -> then swapped below
  s.a.xw = s.a.wx * vec2f(3.0, 1.0); // 30 20 3 10
  s.b.zw = vec2f(70.0, 80.0);        // 5 6 70 80
  s.c[0].yx += vec2f(92.0, 100.0);   // 109 102 11 12  (x: 9 + 100, y: 10 + 92)
  s.c[0].x -= 2.0;                   // 107
  let q = &s.c[1];
  q.zxw = vec3f(3.5, 2.5, 1.0);      // 2.5 14 3.5 1
  s.d.wzyx.wx = vec2f(40.0, 50.0);   // d.x = 40, d.w = 50
  s.d.xyz.zy += vec2f(2.0, 0.0);     // d.z = 19 + 2, d.y = 18
}
