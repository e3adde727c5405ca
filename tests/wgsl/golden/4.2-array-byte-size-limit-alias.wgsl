alias A = array<vec4f, 300000000>;
@compute @workgroup_size(1) fn main() { }
