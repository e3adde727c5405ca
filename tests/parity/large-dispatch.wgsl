// 512 workgroups of 64 invocations each write one element: every element written exactly once.
// @dispatch 512
// @bind 0:0 storage rw 131072
// @expect-py 0:0 u32 [u32(i * 2654435761) for i in range(32768)]
@group(0) @binding(0) var<storage, read_write> r: array<u32>;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) g: vec3u) {
  r[g.x] = g.x * 2654435761u;
}
