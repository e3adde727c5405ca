@id(1) @diagnostic(off, derivative_uniformity) override o = 1;
