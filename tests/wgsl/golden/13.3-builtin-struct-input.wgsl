struct In { @builtin(global_invocation_id) gid: vec3u, @builtin(local_invocation_index) idx: u32 }
@group(0) @binding(0) var<storage, read_write> out: array<u32>;

@compute @workgroup_size(1)
fn main(inp: In) {
  out[inp.idx] = inp.gid.x;
}
