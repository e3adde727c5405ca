const N = 4u;
var<private> a: array<i32, N>;
