fn f() { var j = 0; loop { let k = j; continuing { j = k + 1; break if j > 3; } } }
