var<workgroup> w: array<u32, 8>;
@group(0) @binding(0) var<storage, read_write> out: array<u32>;
fn inc(p: ptr<workgroup, u32>) { *p += 1u; }
fn incf(p: ptr<function, u32>) { *p += 1u; }
fn incs(p: ptr<storage, u32, read_write>) { *p += 1u; }
@compute @workgroup_size(8)
fn main(@builtin(local_invocation_index) i: u32) {
  inc(&w[i]);
  var arr: array<u32, 4>;
  incf(&arr[i % 4u]);
  incs(&out[i]);
  workgroupBarrier();
  out[i] = w[i] + arr[0];
}
