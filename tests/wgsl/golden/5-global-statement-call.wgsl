fn f() {}
f();
