var<private> a: array<i32, 1.5>;
