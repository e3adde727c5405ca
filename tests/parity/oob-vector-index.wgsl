// Dynamic vector component indices past the end, on a function-scope vector (reference: a
// load gives a component or zero, a store hits some component or nothing) and on a storage
// vec4 (same, within the binding).  In-range indices must be exact.
// @dispatch 1
// @bind 0:0 storage rw 16 init=vals:u32:10,20,30,40 pad=256
// @bind 0:1 storage rw 64 pad=256
// @expect 0:1 u32 10,20,30,40,_,_,_,_,1,2,3,4,_,_,_,_
// @assert-py all(v in {10, 20, 30, 40, 0} for v in out(0,1)[4:8])
// @assert-py all(v in {1, 2, 3, 4, 0} for v in out(0,1)[12:16])
// @assert-py all(v in {10, 20, 30, 40, 77} for v in out(0,0)) and out(0,0).count(77) <= 1
@group(0) @binding(0) var<storage, read_write> sv: vec4u;
@group(0) @binding(1) var<storage, read_write> r: array<u32, 16>;

@compute @workgroup_size(1)
fn main() {
  var fv = vec4u(1u, 2u, 3u, 4u);
  for (var i = 0u; i < 8u; i++) {
    let k = select(i, i * 0x20000001u, i >= 6u);     // 4, 5 and two huge indices
    r[i] = sv[k];
    r[8u + i] = fv[k];
  }
  var j = 4u;
  sv[j + 1000u] = 77u;
}
