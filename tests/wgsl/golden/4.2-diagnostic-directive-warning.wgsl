diagnostic(warning, derivative_uniformity);
