fn f() { while true { } }
