struct { a: i32 }
