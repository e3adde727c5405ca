const x = 1i32;
