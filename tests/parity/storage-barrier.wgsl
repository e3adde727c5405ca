// storageBarrier orders storage writes and reads within a workgroup: each invocation writes its
// slot, then reads its neighbour's.
// @dispatch 2
// @bind 0:0 storage rw 512
// @bind 0:1 storage rw 512
// @expect-py 0:1 u32 [(w * 64 + (l + 1) % 64) * 3 + 1 for w in range(2) for l in range(64)]
@group(0) @binding(0) var<storage, read_write> s: array<u32, 128>;
@group(0) @binding(1) var<storage, read_write> r: array<u32, 128>;

@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) l: u32, @builtin(workgroup_id) w: vec3u) {
  let base = w.x * 64u;
  s[base + l] = (base + l) * 3u + 1u;
  storageBarrier();
  r[base + l] = s[base + (l + 1u) % 64u];
}
