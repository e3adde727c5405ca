struct S { @diagnostic(off, derivative_uniformity) a : i32 }
