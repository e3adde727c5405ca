fn f(p: ptr<function, array<f32, 70000>>) {}
@compute @workgroup_size(1) fn main() { }
