fn f() { for (var i = 0; i < 2; i++) { let i = 3; } }
