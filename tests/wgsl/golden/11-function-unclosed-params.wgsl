fn f( {}
