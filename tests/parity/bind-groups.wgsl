// Several bind groups (0, 1, 2) with bindings that are not contiguous, read-only and read-write
// storage and a uniform.
// @dispatch 1
// @bind 0:3 storage read 64 init=ramp:u32:10
// @bind 1:0 uniform 16 init=vals:u32:1000,2000,0,0
// @bind 2:5 storage rw 64
// @bind 2:1 storage rw 64
// @expect-py 2:5 u32 [x + 1000 for x in range(10, 26)]
// @expect-py 2:1 u32 [x * 2000 for x in range(10, 26)]
@group(0) @binding(3) var<storage, read> a: array<u32, 16>;
@group(1) @binding(0) var<uniform> k: vec4u;
@group(2) @binding(5) var<storage, read_write> b: array<u32, 16>;
@group(2) @binding(1) var<storage, read_write> c: array<u32, 16>;

@compute @workgroup_size(16)
fn main(@builtin(local_invocation_index) i: u32) {
  b[i] = a[i] + k.x;
  c[i] = a[i] * k.y;
}
