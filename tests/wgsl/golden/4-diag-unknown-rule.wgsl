diagnostic(off, foo_bar);
