alias P = ptr<uniform, atomic<i32>>;
