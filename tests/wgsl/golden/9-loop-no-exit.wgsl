fn f() { loop { } }
