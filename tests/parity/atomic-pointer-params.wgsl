// Atomics through pointer parameters: ptr<storage, atomic<u32>, read_write> and
// ptr<workgroup, atomic<u32>> passed to helpers, atomicLoad/atomicStore/atomicAdd through them.
// @dispatch 2
// @bind 0:0 storage rw 8
// @expect 0:0 u32 128,8128
var<workgroup> wsum: atomic<u32>;
@group(0) @binding(0) var<storage, read_write> c: array<atomic<u32>, 2>;

fn bump(p: ptr<storage, atomic<u32>, read_write>, v: u32) { atomicAdd(p, v); }
fn add_local(p: ptr<workgroup, atomic<u32>>, v: u32) -> u32 { return atomicAdd(p, v); }

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) g: vec3u, @builtin(local_invocation_index) l: u32) {
  bump(&c[0], 1u);
  _ = add_local(&wsum, g.x);
  workgroupBarrier();
  if (l == 0u) { bump(&c[1], atomicLoad(&wsum)); }
}
