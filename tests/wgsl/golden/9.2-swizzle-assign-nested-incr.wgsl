@compute @workgroup_size(1) fn main() { var v = vec4u(); v.xy.x++; }
