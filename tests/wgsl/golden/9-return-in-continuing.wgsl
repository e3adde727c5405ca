fn f() { loop { break; continuing { return; } } }
