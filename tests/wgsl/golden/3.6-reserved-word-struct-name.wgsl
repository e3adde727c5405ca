struct class { a: i32 }
