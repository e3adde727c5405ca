var<private> a: array<array<f32, 2>, 65535>;
// f is no entry point's: the private memory limit (8192 bytes per entry point) does not apply
fn f() { a[0][0] = 1.0; }
@compute @workgroup_size(1) fn main() { }
