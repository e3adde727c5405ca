fn f() {
  var v : i32;
  v <<= 31u;
  v >>= 32u;
}
