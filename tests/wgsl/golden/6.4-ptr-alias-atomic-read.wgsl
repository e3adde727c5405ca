alias P = ptr<storage, atomic<i32>, read>;
