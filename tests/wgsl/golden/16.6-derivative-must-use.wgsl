fn f() { dpdyCoarse(1.0); }
