fn f() { const a = 2; const_assert a == 3; }
