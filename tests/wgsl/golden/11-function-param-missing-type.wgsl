fn f(a) {}
