@must_use fn g() {}
