@fragment fn fs(@location(0) c: vec4<f32>) -> @location(0) vec4<f32> { return c; }
