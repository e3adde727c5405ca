fn f() { for (;;) { } }
