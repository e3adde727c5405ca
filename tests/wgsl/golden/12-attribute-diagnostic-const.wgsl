@diagnostic(off, derivative_uniformity) const c = 1;
