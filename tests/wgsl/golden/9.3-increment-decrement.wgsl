fn f() {
  var i = 0;
  var a = array<i32, 2>();
  i++;
  i--;
  a[0]++;
}
