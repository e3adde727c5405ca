override N: u32 = 64;
var<workgroup> t: array<f32, N>;
@compute @workgroup_size(N) fn main(@builtin(local_invocation_index) i: u32) { t[i] = 0.0; }
