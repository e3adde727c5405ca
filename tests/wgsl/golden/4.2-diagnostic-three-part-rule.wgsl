diagnostic(off, a.b.c);
