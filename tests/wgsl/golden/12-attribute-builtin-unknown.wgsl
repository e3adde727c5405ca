@compute @workgroup_size(1)
fn f(@builtin(thread_id) t: u32) {}
