var<workgroup> x: i32 = 1;
