// A histogram with array<atomic<u32>>: 2048 random bytes into 16 bins.
// @dispatch 8
// @bind 0:0 storage read 2048 init=rand:u32:161
// @bind 0:1 storage rw 64
// @expect-py 0:1 u32 [sum(1 for x in inp(0,0) for s in (0, 8, 16, 24) if ((x >> s) & 15) == b) for b in range(16)]
@group(0) @binding(0) var<storage, read> a: array<u32, 512>;
@group(0) @binding(1) var<storage, read_write> bins: array<atomic<u32>, 16>;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) g: vec3u) {
  let x = a[g.x];
  for (var s = 0u; s < 32u; s += 8u) {
    atomicAdd(&bins[(x >> s) & 15u], 1u);
  }
}
