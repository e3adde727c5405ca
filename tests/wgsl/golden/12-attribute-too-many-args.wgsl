@compute @workgroup_size(1, 2, 3, 4)
fn f() {}
