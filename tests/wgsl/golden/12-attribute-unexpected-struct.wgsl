@diagnostic(off, derivative_uniformity)
struct S { a : i32 }
