struct In { @builtin(local_invocation_index) i: u32, @builtin(workgroup_id) w: vec3<u32> }
@compute @workgroup_size(1) fn main(inp: In) { _ = inp.i; }
