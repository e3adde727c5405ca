@fragment fn main(@location(0) v : f32) -> @location(0) vec4f { let d = dpdx(v); if (v > 0.0) { return vec4f(d); } return vec4f(); }
