@compute @workgroup_size(1) fn main() { var v = vec4f(); v.xxy.yz = vec2f(1.0); }
