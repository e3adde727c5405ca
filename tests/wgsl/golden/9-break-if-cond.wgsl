fn f() { var i = 0; loop { i++; continuing { break if i; } } }
