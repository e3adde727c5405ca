@group(0) 0x@binding(0) var<storage> a: i32;
