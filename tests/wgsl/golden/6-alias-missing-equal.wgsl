alias T i32;
