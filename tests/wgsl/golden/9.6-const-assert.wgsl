const N = 4u;
const_assert N == 4u;
@group(0) @binding(0) var<storage, read_write> out: array<u32>;

@compute @workgroup_size(1)
fn main(@builtin(global_invocation_id) gid: vec3u) {
  const_assert N > 1u;
  out[0] = N;
}
