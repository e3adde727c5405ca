@diagnostic(off, derivative_uniformity)
fn f() {}
