@fragment fn main(@location(0) @interpolate(flat) v : f32) -> @location(0) vec4f { if (v > 0.0) { return vec4f(dpdx(v)); } return vec4f(); }
