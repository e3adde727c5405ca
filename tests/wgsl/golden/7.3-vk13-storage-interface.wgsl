@group(0) @binding(0) var<storage, read_write> out: array<u32>;
var<workgroup> w: u32;
var<private> p: u32 = 3u;
@compute @workgroup_size(1)
fn main() { w = p; out[0] = w; }
