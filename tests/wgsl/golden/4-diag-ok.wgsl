diagnostic(off, derivative_uniformity);
