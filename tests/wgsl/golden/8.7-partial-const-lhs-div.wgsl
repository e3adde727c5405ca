@compute @workgroup_size(1) fn main() {
  var i = 0i;
  let x = 7i / (i + 1i);
  _ = x;
}
