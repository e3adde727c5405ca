@group(0) @binding(0) var<storage, read_write> s: array<f32>;
@compute @workgroup_size(8) fn a(@builtin(global_invocation_id) g: vec3u) { s[g.x] = 1.0; }
@compute @workgroup_size(4, 4) fn b(@builtin(global_invocation_id) g: vec3u) { s[g.y] = 2.0; }
