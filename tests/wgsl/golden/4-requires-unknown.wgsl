requires foo;
