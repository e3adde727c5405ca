fn f() { switch 1i { case 1u { } default { } } }
