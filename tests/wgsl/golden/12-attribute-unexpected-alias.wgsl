@diagnostic(off, derivative_uniformity) alias A = i32;
