alias P = ptr<storage, i32, write>;
