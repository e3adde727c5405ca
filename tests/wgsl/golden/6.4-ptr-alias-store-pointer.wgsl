alias P = ptr<private, ptr<private, i32>>;
