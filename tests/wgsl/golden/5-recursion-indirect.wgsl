fn a() { b(); }
fn b() { c(); }
fn c() { a(); }
