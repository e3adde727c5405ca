diagnostic(error, derivative_uniformity,);
