var<private> a: array<i32, 0>;
