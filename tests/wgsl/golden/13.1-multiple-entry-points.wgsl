@group(0) @binding(0) var<storage, read_write> out: array<u32>;
var<workgroup> w: array<u32, 4>;
@compute @workgroup_size(4)
fn first(@builtin(local_invocation_index) i: u32) { w[i] = i; out[i] = w[3u - i]; }
@compute @workgroup_size(1)
fn second() { out[0] = 9u; }
