const a = i32(3e10);
