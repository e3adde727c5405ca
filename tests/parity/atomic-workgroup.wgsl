// Workgroup-scope atomics: zero-initialised, updated by all 64 invocations, read after a
// barrier; one result per workgroup; plus atomicStore/atomicLoad in storage.
// @dispatch 4
// @bind 0:0 storage rw 64
// @expect-py 0:0 u32 [v for w in range(4) for v in (64, sum(range(64 * w, 64 * w + 64)), 63 + 64 * w, 64 * w)]
var<workgroup> cnt: atomic<u32>;
var<workgroup> total: atomic<u32>;
var<workgroup> hi: atomic<u32>;
var<workgroup> lo: atomic<u32>;
@group(0) @binding(0) var<storage, read_write> r: array<array<atomic<u32>, 4>, 4>;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) g: vec3u, @builtin(local_invocation_index) l: u32,
        @builtin(workgroup_id) w: vec3u) {
  if (l == 0u) { atomicStore(&lo, 0xFFFFFFFFu); }
  workgroupBarrier();
  atomicAdd(&cnt, 1u);
  atomicAdd(&total, g.x);
  atomicMax(&hi, g.x);
  atomicMin(&lo, g.x);
  workgroupBarrier();
  if (l == 0u) {
    atomicStore(&r[w.x][0], atomicLoad(&cnt));
    atomicStore(&r[w.x][1], atomicLoad(&total));
    atomicStore(&r[w.x][2], atomicLoad(&hi));
    atomicStore(&r[w.x][3], atomicLoad(&lo));
  }
}
