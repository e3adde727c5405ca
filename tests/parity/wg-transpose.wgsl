// A 16x16 tile transpose through workgroup memory with a 2-D workgroup (16, 16) and a 2x2 grid
// of workgroups over a 32x32 matrix.
// @dispatch 2,2
// @bind 0:0 storage read 4096 init=ramp:u32
// @bind 0:1 storage rw 4096
// @expect-py 0:1 u32 [c * 32 + r for r in range(32) for c in range(32)]
var<workgroup> tile: array<array<u32, 17>, 16>;
@group(0) @binding(0) var<storage, read> a: array<u32, 1024>;
@group(0) @binding(1) var<storage, read_write> b: array<u32, 1024>;

@compute @workgroup_size(16, 16)
fn main(@builtin(local_invocation_id) l: vec3u, @builtin(workgroup_id) w: vec3u) {
  tile[l.y][l.x] = a[(w.y * 16u + l.y) * 32u + w.x * 16u + l.x];
  workgroupBarrier();
  b[(w.x * 16u + l.y) * 32u + w.y * 16u + l.x] = tile[l.x][l.y];
}
