alias T = i32;
diagnostic(off, derivative_uniformity);
