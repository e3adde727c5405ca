fn f() { switch 1 { case 1 { } } }
