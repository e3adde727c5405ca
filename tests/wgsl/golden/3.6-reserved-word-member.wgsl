struct S { a: i32, static: i32 }
