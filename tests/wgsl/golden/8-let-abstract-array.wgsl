fn f() { let a = array(1, 2, 3); let b: array<f32, 2> = array(1, 2.5); var c = a; c[0] = 4; }
