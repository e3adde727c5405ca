enable foo;
