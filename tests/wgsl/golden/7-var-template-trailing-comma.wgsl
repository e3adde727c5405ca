@group(0) @binding(0) var<storage, read_write,> a: i32;
