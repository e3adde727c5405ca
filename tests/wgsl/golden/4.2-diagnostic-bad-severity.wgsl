diagnostic(fatal, derivative_uniformity);
