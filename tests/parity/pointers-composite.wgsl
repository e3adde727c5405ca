// Pointers into composites: ptr to a struct member, to an array element, to a vector in
// function memory, passed to helpers (pointer_composite_access: p.x and p[i] through a pointer).
// @dispatch 1
// @bind 0:0 storage rw 64
// @expect 0:0 u32 11,22,30,40,15,6,7,8,9,10,3,0,0,0,0,0
struct S { v: vec4u, arr: array<u32, 4> }
@group(0) @binding(0) var<storage, read_write> r: array<u32, 16>;

fn add_to(p: ptr<function, u32>, k: u32) { *p += k; }
fn set_x(p: ptr<function, vec4u>) { p.x = 11u; (*p).y = 22u; }
fn bump_all(p: ptr<function, array<u32, 4>>) { for (var i = 0; i < 4; i++) { p[i] += 5u; } }

@compute @workgroup_size(1)
fn main() {
  var s = S(vec4u(1u, 2u, 30u, 40u), array<u32, 4>(10u, 1u, 2u, 3u));
  set_x(&s.v);
  bump_all(&s.arr);
  add_to(&s.arr[1], 0u);
  let pv = &s.v;
  let pa = &s.arr;
  r[0] = pv.x; r[1] = (*pv).y; r[2] = pv[2]; r[3] = s.v.w;
  r[4] = pa[0]; r[5] = (*pa)[1]; r[6] = s.arr[2]; r[7] = s.arr[3];
  var n = 9u;
  add_to(&n, 0u);
  r[8] = n;
  var m = 7u;
  let pm = &m;
  *pm = *pm + 3u;
  r[9] = m;
  r[10] = 3u;
}
