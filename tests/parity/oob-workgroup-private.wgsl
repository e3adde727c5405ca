// Out-of-bounds indices on workgroup and private arrays: writes stay inside the variable
// (other variables keep their values), loads give an element of the array or 0.
// @dispatch 1
// @bind 0:0 storage rw 128
// @expect 0:0 u32 _,_,_,_,_,_,_,_,5,5,5,5,5,5,5,5,_,_,_,_,_,_,_,_,9,9,9,9,9,9,9,9
// @assert-py all(v in {0, 100, 101, 102, 103} | {200 + k for k in range(8)} for v in out(0,0)[0:8])
// @assert-py all(v in {0, 300, 301, 302, 303} | {400 + k for k in range(8)} for v in out(0,0)[16:24])
var<workgroup> wa: array<u32, 4>;
var<workgroup> wb: array<u32, 8>;
var<private> pa: array<u32, 4>;
var<private> pb: array<u32, 8>;
@group(0) @binding(0) var<storage, read_write> r: array<u32, 32>;

@compute @workgroup_size(8)
fn main(@builtin(local_invocation_index) i: u32) {
  if (i < 4u) { wa[i] = 100u + i; }
  wb[i] = 5u;
  pa = array<u32, 4>(300u, 301u, 302u, 303u);
  for (var k = 0u; k < 8u; k++) { pb[k] = 9u; }
  workgroupBarrier();
  if (i == 0u) { for (var k = 4u; k < 12u; k++) { wa[k * 3u] = 200u + k - 4u; } }
  pa[4u + i * 0x10000u] = 400u + i;
  workgroupBarrier();
  r[i] = wa[i + 2u];
  r[8u + i] = wb[i];
  r[16u + i] = pa[i + 2u];
  r[24u + i] = pb[i];
}
