struct S {
