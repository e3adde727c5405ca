// 16 KiB of workgroup memory (array<vec4u, 1024>) written and read crosswise by 256
// invocations; lavapipe and llvmpipe both allow 32 KiB, WebGPU's default limit is 16 KiB.
// @dispatch 2
// @bind 0:0 storage rw 8192
// @expect-py 0:0 u32 [sum((w * 100000 + (1023 - (4 * l + k)) * 4 + c) for c in range(4)) for w in range(2) for l in range(256) for k in range(4)]
var<workgroup> big: array<vec4u, 1024>;
@group(0) @binding(0) var<storage, read_write> r: array<u32, 2048>;

@compute @workgroup_size(256)
fn main(@builtin(local_invocation_index) l: u32, @builtin(workgroup_id) w: vec3u) {
  for (var k = 0u; k < 4u; k++) {
    let i = 4u * l + k;
    big[i] = vec4u(w.x * 100000u + i * 4u) + vec4u(0u, 1u, 2u, 3u);
  }
  workgroupBarrier();
  for (var k = 0u; k < 4u; k++) {
    let v = big[1023u - (4u * l + k)];
    r[w.x * 1024u + 4u * l + k] = v.x + v.y + v.z + v.w;
  }
}
