@compute @workgroup_size(1)
fn f(@builtin() t: u32) {}
