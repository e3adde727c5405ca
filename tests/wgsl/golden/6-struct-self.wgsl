struct S { a: S }
