fn (a: i32) {}
