fn f() { let x = 1; switch 1 { case x { } default { } } }
