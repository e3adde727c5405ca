fn f(c : bool) -> f32 { if (c) { return dpdx(1.0); } return 0.0; }
@fragment fn main(@location(0) v : f32) -> @location(0) vec4f { return vec4f(f(v > 0.0)); }
