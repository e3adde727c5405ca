@group(0) @binding(0) var<storage, read> o: vec4f;
@compute @workgroup_size(1) fn main() { o.xy = vec2f(1.0); }
