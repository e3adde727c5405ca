fn f() { while 1u { } }
