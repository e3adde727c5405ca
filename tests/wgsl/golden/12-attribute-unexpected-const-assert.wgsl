@diagnostic(off, derivative_uniformity) const_assert true;
