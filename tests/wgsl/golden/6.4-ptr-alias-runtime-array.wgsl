alias P = ptr<function, array<i32>>;
