fn f() { loop { break; continuing { continue; } } }
