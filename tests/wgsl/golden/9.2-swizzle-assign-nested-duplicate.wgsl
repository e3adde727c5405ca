@compute @workgroup_size(1) fn main() { var v = vec4f(); v.xyz.xx = vec2f(1.0); }
