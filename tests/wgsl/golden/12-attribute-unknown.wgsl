@foo fn f() {}
