override N = 4;
var<private> a: array<i32, N>;
