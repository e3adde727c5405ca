@compute @workgroup_size(1) fn main() { var v = vec4f(); v.xy++; }
