// Workgroup variables are zero-initialised before the entry point runs: arrays, structs with
// vectors, a matrix, an atomic and a scalar are read before anything writes them, in each of 3
// workgroups.
// @dispatch 3
// @bind 0:0 storage rw 768 init=fill:0xDEADBEEF
// @expect-py 0:0 u32 [0] * 192
struct S {
  v: vec3f,
  i: i32,
  m: mat2x2f,
}
var<workgroup> arr: array<u32, 64>;
var<workgroup> s: S;
var<workgroup> at: atomic<u32>;
var<workgroup> x: f32;
@group(0) @binding(0) var<storage, read_write> r: array<array<u32, 64>, 3>;

@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) l: u32, @builtin(workgroup_id) w: vec3u) {
  var acc = arr[l];
  acc |= bitcast<u32>(s.v.x) | bitcast<u32>(s.v.y) | bitcast<u32>(s.v.z) | bitcast<u32>(s.i);
  acc |= bitcast<u32>(s.m[0][0]) | bitcast<u32>(s.m[1][1]) | atomicLoad(&at) | bitcast<u32>(x);
  workgroupBarrier();
  arr[l] = 0xFFu;               // dirty the memory: the next workgroup must see zeros again
  s.i = 5;
  atomicStore(&at, 9u);
  x = 1.0;
  r[w.x][l] = acc;
}
