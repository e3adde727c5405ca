alias = i32;
