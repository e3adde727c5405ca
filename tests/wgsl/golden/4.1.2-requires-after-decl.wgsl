fn f() {}
requires pointer_composite_access;
