fn f() { let a = true && false || true; }
