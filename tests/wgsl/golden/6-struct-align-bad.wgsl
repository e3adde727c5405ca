struct S { @align(3) a: i32 }
