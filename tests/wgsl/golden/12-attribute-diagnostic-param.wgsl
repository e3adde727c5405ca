fn f(@diagnostic(off, derivative_uniformity) a : i32) {}
