fn f() { var y: foo; }
