alias P = ptr<function, array<i32, 70000>>;
