fn f() { switch 1 { case 1, 2 { } case 2 { } default { } } }
