fn f() { loop { break; continuing { loop { break; } } } }
