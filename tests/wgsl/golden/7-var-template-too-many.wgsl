var<storage, read_write x> a: i32;
