struct S { a: i32 };
