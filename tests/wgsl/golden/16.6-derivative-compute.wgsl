// A derivative built-in reached from a compute entry point, two calls down.
fn f(x : f32) -> f32 { return dpdx(x); }
fn g() -> f32 { return f(2.0); }
@compute @workgroup_size(1) fn main() { _ = g(); }
