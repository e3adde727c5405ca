fn f() { let x = 1u; switch x { case 1, 2u { } default { } } }
