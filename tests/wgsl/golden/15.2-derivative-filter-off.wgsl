@fragment fn main(@location(0) v : f32) -> @location(0) vec4f { var r = 0.0; if (v > 0.0) { @diagnostic(off, derivative_uniformity) { r = dpdy(v); } } return vec4f(r); }
