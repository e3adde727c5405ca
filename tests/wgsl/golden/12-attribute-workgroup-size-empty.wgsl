@compute @workgroup_size()
fn f() {}
