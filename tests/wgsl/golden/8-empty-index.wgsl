fn f() {
  let a = array(1, 2);
  let x = a[];
}
