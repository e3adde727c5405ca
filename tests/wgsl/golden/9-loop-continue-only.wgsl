fn f() { loop { continue; } }
