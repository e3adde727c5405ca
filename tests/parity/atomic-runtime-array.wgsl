// Atomics inside a runtime-sized array of structs (atomic member next to a plain one), indexed
// by the invocation: per-slot counts are fixed; the plain member is untouched.
// @dispatch 4
// @bind 0:0 storage rw 128 init=fill:0x0 pad=256
// @expect-py 0:0 u32 [v for k in range(16) for v in (16, 0x1234)]
struct Slot { n: atomic<u32>, tag: u32 }
@group(0) @binding(0) var<storage, read_write> slots: array<Slot>;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) g: vec3u) {
  atomicAdd(&slots[g.x % 16u].n, 1u);
  if (g.x < 16u) { slots[g.x].tag = 0x1234u; }
}
