@group(0) @binding(0) var<storage, read_write> out: array<u32>;

@compute @workgroup_size(4, 2, 1)
fn main(@builtin(local_invocation_id) lid: vec3u, @builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u, @builtin(local_invocation_index) lidx: u32, @builtin(global_invocation_id) gid: vec3u) {
  out[0] = lid.x + wid.y + nwg.z + lidx + gid.x;
}
