@compute @workgroup_size(1) fn main() { let v = vec4f(); v.xy = vec2f(1.0); }
