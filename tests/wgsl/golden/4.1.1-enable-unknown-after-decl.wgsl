fn f() {}
enable foo;
