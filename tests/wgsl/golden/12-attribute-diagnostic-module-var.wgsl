@group(0) @binding(0) @diagnostic(off, derivative_uniformity) var<storage> b : i32;
