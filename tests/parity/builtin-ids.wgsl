// Compute built-in values for dispatch (3, 2, 2) of workgroup_size (4, 2, 1):
// global_invocation_id, local_invocation_id, local_invocation_index, workgroup_id,
// num_workgroups, written to a slot computed from them.
// @dispatch 3,2,2
// @bind 0:0 storage rw 6144
// @expect-py 0:0 u32 [v for z in range(2) for y in range(4) for x in range(12) for v in (x, y, z, x % 4, y % 2, (y % 2) * 4 + x % 4, x // 4, y // 2, z, 3, 2, 2, 0, 0, 0, 0)]
@group(0) @binding(0) var<storage, read_write> r: array<array<u32, 16>, 96>;

@compute @workgroup_size(4, 2, 1)
fn main(@builtin(global_invocation_id) g: vec3u, @builtin(local_invocation_id) l: vec3u,
        @builtin(local_invocation_index) li: u32, @builtin(workgroup_id) w: vec3u,
        @builtin(num_workgroups) n: vec3u) {
  let slot = (g.z * 4u + g.y) * 12u + g.x;
  r[slot][0] = g.x; r[slot][1] = g.y; r[slot][2] = g.z;
  r[slot][3] = l.x; r[slot][4] = l.y; r[slot][5] = li;
  r[slot][6] = w.x; r[slot][7] = w.y; r[slot][8] = w.z;
  r[slot][9] = n.x; r[slot][10] = n.y; r[slot][11] = n.z;
}
