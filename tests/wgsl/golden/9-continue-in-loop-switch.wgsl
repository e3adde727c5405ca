fn f() { loop { switch 1 { default { continue; } } } }
