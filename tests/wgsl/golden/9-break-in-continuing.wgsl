fn f() { loop { continuing { break; } } }
