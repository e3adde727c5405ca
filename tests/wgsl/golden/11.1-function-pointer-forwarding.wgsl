@group(0) @binding(0) var<storage, read_write> out: array<u32>;
var<workgroup> w: array<u32, 4>;
fn g(p: ptr<storage, u32, read_write>) { *p += 1u; }
fn f(p: ptr<storage, u32, read_write>) { g(p); }
fn gw(p: ptr<workgroup, u32>) { *p += 1u; }
fn fw(p: ptr<workgroup, u32>) { gw(p); }
fn fa(p: ptr<workgroup, array<u32, 4>>, i: u32) { gw(&(*p)[i]); }
@compute @workgroup_size(4)
fn main(@builtin(local_invocation_index) i: u32) { f(&out[i]); fw(&w[i]); fa(&w, i); }
