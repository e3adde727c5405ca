fn f() { switch 1.0 { default { } } }
