diagnostic(off, );
