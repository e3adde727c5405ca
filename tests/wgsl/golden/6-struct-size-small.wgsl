struct S { @size(2) a: i32 }
