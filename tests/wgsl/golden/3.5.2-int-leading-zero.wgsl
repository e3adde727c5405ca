const x = 0123;
