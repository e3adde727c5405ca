@const fn f() {}
