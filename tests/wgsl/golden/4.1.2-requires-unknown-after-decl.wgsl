fn f() {}
requires poir_composite_access;
